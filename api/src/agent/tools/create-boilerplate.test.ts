import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { sandboxSupport, toolHarness } from "../../test/tool-harness";
import type { ProjectSandbox } from "../ports";
import { createBoilerplateTool } from "./create-boilerplate";
import { runShellTool } from "./run-shell";
import { writeFileTool } from "./write-file";

const support = await sandboxSupport();
if (!support.ok) console.warn(`create_boilerplate sandbox tests skipped: local sandboxes are unavailable here (${support.why})`);

let h: Awaited<ReturnType<typeof toolHarness>>;
beforeAll(async () => {
  h = await toolHarness();
}, 180_000); // a PGlite start and migrations take minutes on a loaded machine
afterAll(() => h.close(), 30_000);

describe("create_boilerplate", () => {
  test("an unknown template is refused before anything happens", async () => {
    const p = await h.project();
    const out = await p.call(createBoilerplateTool, { template: "angular" });
    expect(out.ok).toBe(false);
    expect(out.result).toContain("invalid arguments for create_boilerplate: template:");
  });

  test.skipIf(!support.ok)(
    "node: files stored, workflow set and started; steps Creating → Created → Installed → Configured → Started",
    async () => {
      const p = await h.project();
      // Notes written before the app exists: the template starts anyway and leaves them as they are.
      expect((await p.call(writeFileTool, { path: "AGENTS.md", content: "Keep it in French.\n" })).ok).toBe(true);
      const stepsBefore = p.steps.length;
      const out = await p.call(createBoilerplateTool, { template: "node" });
      expect(out.ok).toBe(true);
      expect(out.summary).toMatch(/^Node\.js app \(\d+ files\)$/);
      expect(out.result).toContain("`node --watch server.js`");
      expect(p.steps.slice(stepsBefore).map((s) => `${s.status}: ${s.line}`)).toEqual([
        "in_progress: Creating Node.js app from the node template",
        expect.stringMatching(/^completed: Created Node\.js app \(\d+ files\)$/),
        "completed: Installed dependencies",
        "completed: Configured workflow: node --watch server.js",
        "completed: Started: node --watch server.js",
      ]);
      expect(await p.file("server.js")).toBeTruthy();
      expect(await p.file("AGENTS.md")).toBe("Keep it in French.\n");
      const project = (await (await p.user.request("GET", `/api/projects/${p.projectId}`)).json()) as { workflowCommand: string };
      expect(project.workflowCommand).toBe("node --watch server.js");
      // The app is running in the sandbox.
      let status = "";
      for (let i = 0; i < 20 && !status.includes("200"); i++) {
        await Bun.sleep(200);
        status = (await p.call(runShellTool, { command: `node -e "fetch('http://127.0.0.1:3000/').then((r) => console.log(r.status))"` })).result;
      }
      expect(status).toContain("200");
    },
    120_000,
  );
});

describe("create_boilerplate on an existing project", () => {
  const stubSandbox = (applied: string[]): ProjectSandbox => ({
    run: async () => ({ exitCode: 0, stdout: "", stderr: "", timedOut: false, truncated: false }),
    start: async () => {},
    applyTemplate: async (template) => {
      applied.push(template);
      return { filesWritten: 7, workflowCommand: "npm run dev" };
    },
  });

  test("a project that already has files is refused unless overwrite is asked for", async () => {
    const applied: string[] = [];
    const p = toolContext(memoryWorkspace({ "src/App.tsx": "mine", "package.json": "{}" }, stubSandbox(applied)));
    const refused = await p.call(createBoilerplateTool, { template: "react" });
    expect(refused.ok).toBe(false);
    expect(refused.result).toContain("The project already has 2 files (src/App.tsx, package.json)");
    expect(refused.result).toContain("overwrite: true");
    expect(applied).toEqual([]);
    const replaced = await p.call(createBoilerplateTool, { template: "react", overwrite: true });
    expect(replaced.ok).toBe(true);
    expect(applied).toEqual(["react"]);
  });

  test("an empty project gets the template without being asked", async () => {
    const applied: string[] = [];
    const p = toolContext(memoryWorkspace({}, stubSandbox(applied)));
    expect((await p.call(createBoilerplateTool, { template: "node" })).ok).toBe(true);
    expect(applied).toEqual(["node"]);
  });

  test("a project holding only AGENTS.md (the user's notes) gets the template without being asked", async () => {
    const applied: string[] = [];
    const p = toolContext(memoryWorkspace({ "AGENTS.md": "Use Tailwind." }, stubSandbox(applied)));
    expect((await p.call(createBoilerplateTool, { template: "react" })).ok).toBe(true);
    expect(applied).toEqual(["react"]);
  });
});

describe("create_boilerplate's result", () => {
  const templateFiles = (name: string) => {
    const root = join(import.meta.dir, "../../../templates", name, "files");
    const out: Record<string, string> = {};
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name));
        else out[relative(root, join(dir, e.name))] = readFileSync(join(dir, e.name), "utf8");
      }
    };
    walk(root);
    return out;
  };

  test("holds the template's files inline, so the model need not list and read them again", async () => {
    const files = templateFiles("react");
    let workspace: ReturnType<typeof memoryWorkspace> | null = null;
    const sandbox: ProjectSandbox = {
      run: async () => ({ exitCode: 0, stdout: "", stderr: "", timedOut: false, truncated: false }),
      start: async () => {},
      applyTemplate: async () => {
        for (const [path, content] of Object.entries(files)) await workspace!.files.write(path, content);
        return { filesWritten: Object.keys(files).length, workflowCommand: "npm run dev" };
      },
    };
    workspace = memoryWorkspace({}, sandbox);
    const out = await toolContext(workspace).call(createBoilerplateTool, { template: "react" });
    expect(out.ok).toBe(true);
    for (const [path, content] of Object.entries(files)) {
      expect(out.result).toContain(`--- ${path} ---`);
      expect(out.result).toContain(content.trimEnd());
    }
    expect(out.result).not.toContain("Use list_files and read_file to see the files");
    expect(out.result).toContain("no need to read them");
  });
});
