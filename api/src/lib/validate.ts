/**
 * zod validation for routes: `@hono/zod-validator` with one hook that turns zod issues into a readable
 * 400 AppError ("name: Too small; description: Expected string"), so every route fails the same way.
 */
import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler, ValidationTargets } from "hono";
import type { z } from "zod";
import { badRequest } from "./errors";

export function summarizeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
    .join("; ");
}

export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, (result) => {
    if (!result.success) throw badRequest(summarizeIssues(result.error.issues));
  });

/**
 * Names, for the typed client (`hc<ApiRoutes>`), the multipart fields a route reads itself: such a route
 * parses its body after its own size limit, with its own messages, so this checks nothing at run time.
 */
export const formFields =
  <T extends Record<string, string | File | undefined>>(): MiddlewareHandler<any, string, { in: { form: T }; out: { form: T } }> =>
  async (_c, next) => {
    await next();
  };

/**
 * Names, for the typed client, the JSON body a route reads itself (after its owner check, so a stranger's
 * bad body is a 404 like any other of their requests); checks nothing at run time.
 */
export const jsonBody =
  <T extends Record<string, unknown>>(): MiddlewareHandler<any, string, { in: { json: T }; out: { json: T } }> =>
  async (_c, next) => {
    await next();
  };
