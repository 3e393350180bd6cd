/**
 * Tokens a build costs: a scripted 15-file build run through the real agent loop, the real tools on an
 * in-memory project, the production system prompt, tools and tokenizer, and a scripted model that works
 * the way real ones do — it starts from the react template (create_boilerplate, on a stand-in sandbox that
 * writes the template's files) and reads the files it was given unless they came with the result, reasons
 * before each call, reads App.tsx before each edit, re-reads a component before fixing it and rewrites it
 * whole. It counts the tokens of every request the model is sent (messages
 * and tool schemas, by the o200k tokenizer) and compares them with a figure given for an earlier build of
 * the agent (`--baseline N`, printed by running this same file on that build). Goal: at least 30% fewer.
 *
 *   bun bench/agent-tokens.ts [--baseline 123456]
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { DEFAULT_AGENT_LIMITS, runAgent } from "../api/src/agent/loop";
import type { ProjectSandbox } from "../api/src/agent/ports";
import { createModelClient } from "../api/src/agent/model-client";
import { systemPrompt } from "../api/src/agent/prompts/system";
import type { RunToolContext } from "../api/src/agent/tools/define-tool";
import { availableTools } from "../api/src/agent/tools/registry";
import { countTokens } from "../api/src/services/chat-runs/token-count";
import { type ChatRequestBody, type FakeTurn, startFakeModelServer, turn } from "../api/src/test/fake-model-server";
import { memoryWorkspace } from "../api/src/test/memory-workspace";
import { verdict } from "./support/stats";

const FILES = 15;
const baselineAt = process.argv.indexOf("--baseline");
const baseline = baselineAt === -1 ? null : Number(process.argv[baselineAt + 1]);

const component = (i: number, version: number) =>
  `import { useState } from "react";\n\n/** Part ${i} of the dashboard (version ${version}). */\nexport function Part${i}() {\n` +
  `  const [open, setOpen] = useState(false);\n  const items = ${JSON.stringify(Array.from({ length: 8 }, (_, k) => `item ${k} of part ${i}`))};\n` +
  `  return (\n    <section className="rounded-xl border p-4 shadow-sm">\n      <h2 className="text-lg font-semibold">Part ${i}</h2>\n` +
  `      <button type="button" className="mt-2 rounded bg-blue-600 px-3 py-1 text-white" onClick={() => setOpen(!open)}>{open ? "Hide" : "Show"}</button>\n` +
  `      {open && (\n        <ul className="mt-3 space-y-1">\n          {items.map((item) => (\n            <li key={item} className="text-sm text-gray-600">{item}</li>\n          ))}\n        </ul>\n      )}\n` +
  `      <p className="mt-2 text-xs text-gray-400">Version ${version}</p>\n    </section>\n  );\n}\n`;

const app = (parts: number) =>
  `${Array.from({ length: parts }, (_, i) => `import { Part${i + 1} } from "./components/Part${i + 1}";`).join("\n")}\n\n` +
  `export default function App() {\n  return (\n    <main className="mx-auto max-w-5xl space-y-4 p-6">\n      <h1 className="text-2xl font-bold">Dashboard</h1>\n` +
  `${Array.from({ length: parts }, (_, i) => `      <Part${i + 1} />`).join("\n")}\n    </main>\n  );\n}\n`;

/** The react template's files, as create_boilerplate writes them. */
function templateFiles(): Record<string, string> {
  const root = join(import.meta.dir, "../api/templates/react/files");
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else out[relative(root, join(dir, e.name))] = readFileSync(join(dir, e.name), "utf8");
    }
  };
  walk(root);
  return out;
}

/** The build, one model turn per entry (after the template and, when it did not show them, reading its files). */
function script(): FakeTurn[] {
  const think = (what: string) => ({
    reasoning: `The user wants a dashboard with ${FILES} parts. ${what} I should keep each file small and check how App.tsx imports them, then continue with the next part until all are done.`,
  });
  const call = (what: string, name: string, args: Record<string, unknown>) => turn.steps(think(what), { toolCalls: [{ name, arguments: args }] });
  const turns: FakeTurn[] = [];
  for (let i = 1; i <= FILES; i++) {
    turns.push(call(`Now part ${i}.`, "write_file", { path: `src/components/Part${i}.tsx`, content: component(i, 1) }));
    if (i % 3 === 0) {
      turns.push(call("App.tsx must import the new parts; read it first.", "read_file", { path: "src/App.tsx" }));
      turns.push(call("Now add the imports.", "write_file", { path: "src/App.tsx", content: app(i) }));
    }
    if (i % 5 === 0) {
      turns.push(call(`Part ${i - 2} needs a fix; read it first.`, "read_file", { path: `src/components/Part${i - 2}.tsx` }));
      turns.push(call(`Rewrite part ${i - 2}.`, "write_file", { path: `src/components/Part${i - 2}.tsx`, content: component(i - 2, 2) }));
    }
  }
  turns.push(turn.text(`Built the dashboard: ${FILES} parts in src/components, all shown by App.tsx.`));
  return turns;
}

const model = await startFakeModelServer();
const think = { reasoning: "A new project: I start from the react template, then look at its files before I change them." };
const turns = script();
const template = templateFiles();
// Start from the template; a model told to read the files (and not shown them) reads the main ones first.
const opening: FakeTurn[] = [turn.steps(think, { toolCalls: [{ name: "create_boilerplate", arguments: { template: "react" } }] })];
model.respondWith((body) => {
  if (opening.length) return opening.shift()!;
  const last = String(body.messages.at(-1)?.content ?? "");
  if (body.messages.at(-2)?.tool_calls?.some((c) => JSON.stringify(c).includes("create_boilerplate")) && !last.includes("--- src/App.tsx ---")) {
    opening.push(
      ...["package.json", "src/main.tsx", "src/App.tsx", "src/index.css"].map((path) =>
        turn.steps(think, { toolCalls: [{ name: "read_file", arguments: { path } }] }),
      ),
    );
    return turn.steps(think, { toolCalls: [{ name: "list_files", arguments: {} }] });
  }
  return turns.shift() ?? turn.text("Done.");
});
const sent: number[] = [];
const tokensOf = (body: ChatRequestBody) => countTokens(JSON.stringify(body.messages)) + countTokens(JSON.stringify(body.tools ?? []));

const tools = availableTools({ search: { kind: "none" } });
// A stand-in sandbox: applying the template writes its files, as the real one does (installing is not timed here).
const sandbox = {
  run: async () => ({ exitCode: 0, stdout: "", stderr: "", timedOut: false, truncated: false }),
  start: async () => {},
  applyTemplate: async () => {
    for (const [path, content] of Object.entries(template)) await workspace.files.write(path, content);
    return { filesWritten: Object.keys(template).length, workflowCommand: "npm run dev" };
  },
} as unknown as ProjectSandbox;
const workspace = memoryWorkspace({}, sandbox);
const result = await runAgent({
  client: createModelClient({ baseUrl: model.baseUrl, apiKey: "bench" }),
  model: "fake-model",
  messages: [
    {
      role: "system",
      content: systemPrompt(
        {
          name: "Dashboard",
          description: null,
          workflowCommand: "npm run dev",
          files: (await workspace.files.list()).map((f) => ({ path: f.path, size: f.size })),
        },
        tools,
      ),
    },
    { role: "user", content: `Build a dashboard with ${FILES} parts, each in its own component.` },
  ],
  tools,
  toolContext: { ...workspace, search: { kind: "none" }, fetch } as RunToolContext,
  enableReasoning: true,
  signal: new AbortController().signal,
  limits: { ...DEFAULT_AGENT_LIMITS, maxSteps: 100, maxRunTokens: Number.MAX_SAFE_INTEGER },
  countTokens,
  emit: () => {},
});
for (const r of model.requests) sent.push(tokensOf(r.body));
await model.close();

const total = sent.reduce((a, b) => a + b, 0);
console.log(
  `agent tokens over a scripted ${FILES}-file build: ${model.requests.length} requests (${result.status}${result.error ? `: ${result.error}` : ""}, ${workspace.fileMap.size} files)`,
);
console.log(
  `  sent ${total.toLocaleString("en")} tokens in all, ${Math.round(total / sent.length).toLocaleString("en")} a request, the last ${sent.at(-1)!.toLocaleString("en")}`,
);
if (baseline) {
  const fewer = 1 - total / baseline;
  console.log(`  against ${baseline.toLocaleString("en")} before: ${(fewer * 100).toFixed(1)}% fewer   (goal: at least 30% fewer: ${verdict(fewer >= 0.3)})`);
}
