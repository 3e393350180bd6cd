/**
 * Which model a run uses and what it can take: the project's chosen model while the server still offers it
 * (else the default), its context window (configured, else what the endpoint reports, else the default) and
 * whether it sees images.
 *
 * @example
 * const model = chooseModel(setup, project.model);
 * const contextTokens = await contextWindowOf(model, { configured: false, fallback: 32_768 });
 */
import type { ModelClient } from "./model";

export type ChosenModel = { client: ModelClient; name: string };

/** The server's model set-up: the client, the default model and the ids a project may choose (absent: only the default). */
export type ModelSetup = { client: ModelClient; name: string; models?: string[] };

export function chooseModel(setup: ModelSetup, chosen: string | null | undefined): ChosenModel {
  const offered = setup.models ?? [setup.name];
  return { client: setup.client, name: chosen && offered.includes(chosen) ? chosen : setup.name };
}

/** Asked at each run: Ollama's window can change between runs. A failing endpoint gives the fallback. */
export async function contextWindowOf(model: ChosenModel, o: { configured: boolean; fallback: number }): Promise<number> {
  if (o.configured || !model.client.contextWindow) return o.fallback;
  try {
    return (await model.client.contextWindow(model.name)) ?? o.fallback;
  } catch {
    return o.fallback;
  }
}

/**
 * The output limit a run asks for when MODEL_MAX_OUTPUT_TOKENS is not set: the default, but no more than
 * about a quarter of the window (at least 1,024), so a small local model keeps room for its prompt.
 */
export function outputTokensFor(contextTokens: number, fallback: number): number {
  return Math.min(fallback, Math.max(1_024, Math.floor(contextTokens / 4)));
}

/** MODEL_VISION as configured (a flag, or a guess from the model's name); on when unset. */
export function seesImages(vision: boolean | ((model: string) => boolean) | undefined, model: string): boolean {
  return typeof vision === "function" ? vision(model) : (vision ?? true);
}
