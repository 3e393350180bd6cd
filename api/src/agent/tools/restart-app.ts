/** restart_app: stops the `app` process (its whole tree) and starts it again from the workflow command. */
import { z } from "zod";
import { appRuntime, describeAppStatus } from "./app-runtime-tool";
import { defineTool } from "./define-tool";

export const restartAppTool = defineTool({
  name: "restart_app",
  description:
    "Restart the app: stop the running workflow command (its dev server) and start it again. Use it after changing " +
    "configuration or dependencies the dev server does not reload by itself, or when the app is not running.",
  input: z.object({}),
  summary: () => "restart app",
  async run(_input, ctx) {
    const app = appRuntime(ctx);
    ctx.step("Restarting the app", "in_progress");
    const status = await app.restart();
    const state = describeAppStatus(status);
    ctx.step(`Restarted the app (${state.split(" (")[0]})`, "completed");
    if (status.status === "running") return { result: `The app was restarted and is ${state}.`, summary: `Restarted: ${state}` };
    const tail = (await app.logTail(3_000)).trim();
    return { result: `The app was restarted but is ${state}.${tail ? `\nEnd of its log:\n${tail}` : ""}`, summary: `Restarted: ${state}` };
  },
});
