import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { dirname, join, relative } from "node:path";

// The agent is an engine: it reaches the server only through its own ports (ports.ts), so its code may
// import its own files, @shared, zod, the openai SDK (in the model client alone) and three lib basics.
const ROOT = import.meta.dir;
// The secret redactor is pure text work (no I/O): the run uses it to hide values in what it streams and saves.
const ALLOWED_LIB = new Set(["lib/errors.ts", "lib/logger.ts", "lib/secret-redactor.ts"]);

function importsOf(source: string): string[] {
  return [...source.matchAll(/^\s*(?:import|export)\b(?:[^'"]*?\bfrom)?\s*["']([^"']+)["']/gm)].map((m) => m[1]!);
}

describe("agent imports", () => {
  test("non-test agent files import only the agent, @shared, zod, lib basics, and openai in model-client.ts", async () => {
    const offending: string[] = [];
    for await (const file of new Glob("**/*.ts").scan(ROOT)) {
      if (file.endsWith(".test.ts")) continue;
      for (const spec of importsOf(await Bun.file(join(ROOT, file)).text())) {
        if (spec.startsWith("@shared/") || spec === "zod") continue;
        if (spec === "openai" || spec.startsWith("openai/")) {
          if (file !== "model-client.ts") offending.push(`${file} → ${spec}`);
          continue;
        }
        if (!spec.startsWith(".")) {
          offending.push(`${file} → ${spec}`);
          continue;
        }
        const target = relative(join(ROOT, ".."), join(ROOT, dirname(file), spec)).replace(/(\.ts)?$/, ".ts");
        if (!target.startsWith("agent/") && !ALLOWED_LIB.has(target)) offending.push(`${file} → ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  test("the check sees a forbidden import", () => {
    expect(importsOf('import { listMessages } from "../db/messages";\nimport type {\n  Sandbox,\n} from "../sandbox/types";\nimport "../db/client";')).toEqual([
      "../db/messages",
      "../sandbox/types",
      "../db/client",
    ]);
  });
});
