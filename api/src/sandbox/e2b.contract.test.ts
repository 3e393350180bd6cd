/**
 * The shared sandbox contract against E2B's cloud. It needs E2B_API_KEY (a paid account); without it the
 * suite is reported as skipped, with the reason, rather than passing silently.
 */
import { test } from "bun:test";
import { silentLogger } from "../lib/logger.ts";
import { processContract } from "../test/process-contract.ts";
import { sandboxContract } from "../test/sandbox-contract.ts";
import type { SandboxProvider } from "./types.ts";

const apiKey = process.env.E2B_API_KEY;

if (apiKey) {
  const makeProvider = async () => {
    // Loaded only with a key: the module (and the vendor SDK it imports) may not exist or load elsewhere.
    const modulePath = "./e2b.ts";
    const { createE2BProvider } = (await import(modulePath)) as {
      createE2BProvider: (o: { apiKey: string; logger: typeof silentLogger }) => SandboxProvider;
    };
    return createE2BProvider({ apiKey, logger: silentLogger });
  };
  sandboxContract("e2b", makeProvider);
  processContract("e2b", makeProvider);
} else {
  console.log("E2B contract suite skipped: E2B_API_KEY is not set");
  test.skip("E2B contract suite skipped: E2B_API_KEY is not set", () => {});
}
