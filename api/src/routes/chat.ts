/**
 * The chat stream. `POST /api/messages/stream` starts an agent run and streams its events (SSE);
 * `GET /api/messages/{projectId}/active` re-attaches to a running one (replay, then live; 204 when none);
 * `POST /api/messages/{projectId}/stop` stops it, keeping the partial answer. Runs outlive requests. A run's
 * start is announced on the project's socket (`run.started`), so every member with the chat open follows it.
 */
import { sendMessageSchema } from "@shared/events/stream";
import { displayName, RUN_STARTED } from "@shared/events/team-events";
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
      const run = await runs.start(access, message, displayName(c.var.caller));
      // The others with the chat open follow the run too (GET …/active), with who sent it.
      const started = { type: RUN_STARTED, projectId: access.projectId, messageId: run.messageId, userId: access.userId, by: run.by } as const;
      await deps.events
        .publish({ ...started, ownerId: access.ownerId, origin: "api" })
        .catch((error) => deps.logger.warn("run start not published", { projectId: access.projectId, error: String(error) }));
      await recordActivity(deps, access, "message.sent", { messageId: run.userMessageId });
      return runEventStream(run, c.req.raw.signal);
    })
    .get("/:projectId/active", async (c) => {
      const run = await runs.active(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view"));
      return run ? runEventStream(run, c.req.raw.signal) : c.body(null, 204);
    })
    .post("/:projectId/stop", async (c) => c.json(await runs.stop(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"))));
};
