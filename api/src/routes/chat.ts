/**
 * The chat stream. `POST /api/messages/stream` starts an agent run and streams its events (SSE);
 * `GET /api/messages/{projectId}/active` re-attaches to a running one (replay, then live; 204 when none);
 * `POST /api/messages/{projectId}/stop` stops it, keeping the partial answer. Runs outlive requests.
 */
import { sendMessageSchema } from "@shared/events/stream";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { projectAccess } from "../services/access";
import { recordActivity } from "../services/activity";
import { runEventStream } from "./chat-sse";

export const chatRoutes = (deps: AppDeps) => {
  const { runs } = deps;
  return new Hono<AppEnv>()
    .post("/stream", validate("json", sendMessageSchema), async (c) => {
      const message = c.req.valid("json");
      const access = await projectAccess(deps, c.var.caller.uid, message.projectId, "edit");
      deps.drain.refuseNew("run");
      const run = await runs.start(access, message);
      await recordActivity(deps, access, "message.sent", { messageId: run.userMessageId });
      return runEventStream(run, c.req.raw.signal);
    })
    .get("/:projectId/active", async (c) => {
      const run = await runs.active(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view"));
      return run ? runEventStream(run, c.req.raw.signal) : c.body(null, 204);
    })
    .post("/:projectId/stop", async (c) => c.json(await runs.stop(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"))));
};
