/**
 * The message of the ConfigError a configuration throws, for the config tests; fails the test when it loads.
 *
 * @example
 * expect(configFailure({ PORT: "eighty" })).toContain("PORT");
 */
import { expect } from "bun:test";
import { ConfigError, loadConfig } from "../lib/config";

export function configFailure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}
