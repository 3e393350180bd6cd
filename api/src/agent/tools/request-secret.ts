/**
 * request_secret: the agent asks the owner for a secret (an API key, a token) the app needs. The chat shows
 * a form (name, reason, a password field); the value goes from the browser straight to the secrets API and
 * into the environment of every process in the sandbox, never to the model, which is told only whether it
 * was set. The run waits for the answer (at most 10 minutes, then "declined").
 */
import { SECRET_NAME_PATTERN, secretNameProblem } from "@shared/schemas/secrets";
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";

export const requestSecretTool = defineTool({
  name: "request_secret",
  description:
    "Ask the user for a secret the app needs (an API key, a token, a password), by environment variable name. " +
    "The user types it into a private form; you never see the value. Once set, it is in the environment of every " +
    "process in the sandbox (process.env.NAME, os.environ['NAME']) and the app is restarted with it. Never ask for " +
    "secrets in chat text, never write their values into files, and read them from the environment in server code " +
    "only (never ship them to the browser). The answer is only 'set' (in the environment now, the app restarted with it) " +
    "or 'declined' (continue without it; do not ask again in this turn).",
  input: z.object({
    name: z.string().regex(SECRET_NAME_PATTERN).describe("The environment variable name, e.g. OPENWEATHER_API_KEY"),
    reason: z.string().min(1).max(500).describe("One sentence for the user: what the secret is for and where to get it"),
  }),
  summary: (input) => input.name,
  async run(input, ctx) {
    const problem = secretNameProblem(input.name);
    if (problem) throw new ToolError(problem);
    if (!ctx.secrets) throw new ToolError("This server cannot store secrets for the project; tell the user what to configure instead.");
    ctx.step(`Asked for the secret ${input.name}`, "in_progress");
    const answer = await ctx.secrets.request(input.name, () => ctx.event?.({ type: "secret_request", name: input.name, reason: input.reason }), ctx.signal);
    ctx.step(answer === "set" ? `Secret ${input.name} set` : `Secret ${input.name} declined`, "completed");
    // Only the answer: what the user typed (or why they declined) is not the model's to read.
    return { result: answer, summary: `${input.name}: ${answer}` };
  },
});
