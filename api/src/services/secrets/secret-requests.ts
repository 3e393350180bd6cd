/**
 * A run waiting for a secret it asked the owner for (the agent's request_secret): it ends "set" when the
 * secret is saved, "declined" when the owner declines, the wait runs out or the run stops. The answer may
 * land on any instance, so both travel on the event bus (`project.env.changed`, `secret.declined`).
 *
 * @example
 * const answer = await waitForSecret(ctx.events, projectId, "WEATHER_API_KEY", { signal, timeoutMs: 600_000 });
 * await declineSecret(ctx, access, "WEATHER_API_KEY"); // from the chat's Decline button
 */
import { secretNameProblem } from "@shared/schemas/secrets";
import type { EventBus } from "../../events/types";
import { badRequest } from "../../lib/errors";
import type { ServiceContext } from "../context";
import type { ProjectAccess } from "../access";

/** How long a run waits for the owner to answer a secret request before taking it as declined. */
export const SECRET_REQUEST_TIMEOUT_MS = 10 * 60_000;

export type SecretAnswer = "set" | "declined";

export function waitForSecret(events: EventBus, projectId: string, name: string, o: { signal: AbortSignal; timeoutMs?: number }): Promise<SecretAnswer> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: SecretAnswer) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      clearTimeout(timer);
      o.signal.removeEventListener("abort", onAbort);
      resolve(answer);
    };
    const unsubscribe = events.subscribe((event) => {
      if (event.projectId !== projectId) return;
      if (event.type === "project.env.changed" && event.names.includes(name)) finish("set");
      else if (event.type === "secret.declined" && event.name === name) finish("declined");
    });
    const timer = setTimeout(() => finish("declined"), o.timeoutMs ?? SECRET_REQUEST_TIMEOUT_MS);
    const onAbort = () => finish("declined");
    o.signal.addEventListener("abort", onAbort);
    if (o.signal.aborted) finish("declined");
  });
}

/** The owner declined the request: every instance hears it, and the run waiting for it goes on without. */
export async function declineSecret(ctx: ServiceContext, access: ProjectAccess, name: string): Promise<void> {
  const { ownerId, projectId } = access;
  const problem = secretNameProblem(name);
  if (problem) throw badRequest(problem);
  await ctx.events.publish({ type: "secret.declined", projectId, ownerId, name, origin: "api" });
}
