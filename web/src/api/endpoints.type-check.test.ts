/**
 * The typed client is real: a call with a wrong path, parameter or body, written to a temporary file that
 * imports endpoints.ts, fails the TypeScript compiler with the error naming it, while the same calls done right
 * compile clean. Fails if the client ever loses its route types (turns `any`, say), which would let the
 * wrong calls through.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dir, "../../..");
const ENDPOINTS = join(import.meta.dir, "endpoints");
const dir = mkdtempSync(join(tmpdir(), "client-type-check-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each call, done right and done wrong, with what the compiler must say about the wrong one. */
const CASES = [
  {
    name: "path",
    right: 'client.projects[":id"].$get({ param: { id: "p" } })',
    wrong: 'client.projects[":id"].nothing.$get({ param: { id: "p" } })',
    says: "'nothing'",
  },
  {
    name: "param",
    right: 'client.projects[":id"].$get({ param: { id: "p" } })',
    wrong: 'client.projects[":id"].$get({ param: { projectId: "p" } })',
    says: "'projectId'",
  },
  {
    name: "body",
    right: 'client.sandbox[":projectId"].shell.$post({ param: { projectId: "p" }, json: { command: "ls" } })',
    wrong: 'client.sandbox[":projectId"].shell.$post({ param: { projectId: "p" }, json: { cmd: "ls" } })',
    says: "'cmd'",
  },
];

function source(call: string): string {
  return `import type { ApiClient } from ${JSON.stringify(ENDPOINTS)};\nexport const call = (client: ApiClient) => ${call};\n`;
}

test("wrong paths, parameters and bodies fail to compile; right ones compile", () => {
  const files = CASES.flatMap((c) => {
    const right = join(dir, `${c.name}-right.ts`);
    const wrong = join(dir, `${c.name}-wrong.ts`);
    writeFileSync(right, source(c.right));
    writeFileSync(wrong, source(c.wrong));
    return [right, wrong];
  });
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error("tsconfig.json could not be read");
  const program = ts.createProgram(files, config.options);
  const errors = (file: string) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));

  for (const c of CASES) {
    expect({ case: c.name, errors: errors(join(dir, `${c.name}-right.ts`)) }).toEqual({ case: c.name, errors: [] });
    const wrong = errors(join(dir, `${c.name}-wrong.ts`));
    expect({ case: c.name, named: wrong.some((message) => message.includes(c.says)) }).toEqual({ case: c.name, named: true });
  }
}, 180_000);
