/** Named processes on the local provider: the shared process contract, in real bubblewrap sandboxes. */
import { afterAll } from "bun:test";
import fs from "node:fs";
import { silentLogger } from "../../lib/logger.ts";
import { localSuiteGate, tempSandboxRoot } from "../../test/local-sandbox-support.ts";
import { processContract } from "../../test/process-contract.ts";
import { createLocalProvider } from "./local-provider.ts";

const rootDir = tempSandboxRoot("processes");
afterAll(() => fs.rmSync(rootDir, { recursive: true, force: true }));

if (await localSuiteGate("local named processes")) {
  processContract("local", () => createLocalProvider({ rootDir, idleTimeoutMs: 120_000, logger: silentLogger, spares: 0 }));
}
