/**
 * set_workflow_command: records the command that starts the project's app. The Preview's "run workflow"
 * button and sandbox re-creation run it, so it must start the app in the foreground of its own process.
 */
import { z } from "zod";
import { defineTool } from "./define-tool";

export const setWorkflowCommandTool = defineTool({
  name: "set_workflow_command",
  description:
    "Record the command that starts this project's app (the Preview's run button and sandbox re-creation run it), " +
    "e.g. `npm run dev -- --host 0.0.0.0` or `node server.js`, and the port it listens on. The app must listen on 0.0.0.0.",
  input: z.object({
    command: z.string().trim().min(1, "command must not be empty").max(1000).describe("Shell command run from the project root"),
    port: z.number().int().min(1).max(65535).optional().describe("The port the app listens on (the preview shows it), e.g. 5173 or 3000"),
  }),
  summary: (input) => input.command,
  async run(input, ctx) {
    await ctx.workflow.set(input.command, input.port);
    ctx.step(`Configured workflow: ${input.command}`, "completed");
    const port = input.port ? ` Its port is ${input.port}.` : "";
    return {
      result: `The project's workflow command is now: ${input.command}.${port} It is not started by this tool: start (or restart) it with restart_app.`,
    };
  },
});
