import { describe, expect, test } from "bun:test";
import { allTools } from "../tools/registry";
import { systemPrompt } from "./system";

describe("system prompt", () => {
  test("names the project, its files and run command, the templates and how servers must run; no tool list beside the schemas", () => {
    const prompt = systemPrompt(
      {
        name: "Todo",
        description: "A todo list",
        workflowCommand: "npm run dev",
        files: [
          { path: "src/App.tsx", size: 120 },
          { path: "package.json", size: 300 },
        ],
      },
      allTools,
      [],
      { maxOutputTokens: 2_048 },
    );
    expect(prompt).toContain("Name: Todo\nDescription: A todo list\nRun command (workflow): npm run dev");
    expect(prompt).toContain("Files:\n- package.json (300 bytes)\n- src/App.tsx (120 bytes)");
    // The tool schemas carry each tool's description; a list in the prompt only repeated them.
    expect(prompt).not.toContain("## Tools");
    for (const tool of allTools) expect(prompt).not.toContain(`- ${tool.name}: `);
    expect(prompt).toContain(
      "react: React + Vite + TypeScript; vite: plain Vite + TypeScript; node: Node.js server; fullstack: React + Vite with a Node.js API",
    );
    expect(prompt).toContain("must listen on 0.0.0.0");
    expect(prompt).toContain("Call tools only through the tool-calling interface");
  });

  test("one rule for starting servers; the output limit as a number; layout, design, structure, installs and the user's language", () => {
    const prompt = systemPrompt({ name: "Todo", description: null, workflowCommand: null, files: [] }, allTools, [], { maxOutputTokens: 2_048 });
    // With restart_app the app is started by it, never by run_shell: no rule says otherwise.
    expect(prompt).toContain("restart_app");
    expect(prompt).not.toContain("background: true");
    expect(prompt).toContain("2,048 tokens");
    expect(prompt).toMatch(/layout/i);
    expect(prompt).toMatch(/src\/components/);
    expect(prompt).toMatch(/install .*before (you )?import/i);
    expect(prompt).toMatch(/language the user writes in/i);
    // Users cannot run commands or open the sandbox's local addresses: the prompt never has the agent tell them to.
    expect(prompt).toMatch(/never tell the user to run/i);
    const withoutRestart = systemPrompt(
      { name: "Todo", description: null, workflowCommand: null, files: [] },
      allTools.filter((t) => t.name !== "restart_app"),
    );
    expect(withoutRestart).toContain("node --watch server.js");
  });

  test("a new project, a long file list, and notes", () => {
    const empty = systemPrompt({ name: "New", description: null, workflowCommand: null, files: [] }, allTools);
    expect(empty).toContain("Run command (workflow): not set yet");
    expect(empty).toContain("Files: none yet (a new project).");
    const many = Array.from({ length: 200 }, (_, i) => ({ path: `f${String(i).padStart(3, "0")}.txt`, size: 1 }));
    const long = systemPrompt({ name: "Big", description: null, workflowCommand: null, files: many }, allTools, ["Older messages were trimmed."]);
    expect(long).toContain("- … and 50 more (use list_files)");
    expect(long).toEndWith("## Notes\n- Older messages were trimmed.");
  });

  test("with the database tools: DATABASE_URL and the migrations convention, applied by the agent and by publishing", () => {
    const prompt = systemPrompt({ name: "Todo", description: null, workflowCommand: null, files: [] }, allTools);
    expect(prompt).toContain("gets its address in DATABASE_URL");
    expect(prompt).toContain("db/migrations/NNN_name.sql");
    expect(prompt).toContain("Apply a new migration to the development database yourself with run_sql");
    expect(prompt).toContain("publishing applies them to production");
    const without = systemPrompt(
      { name: "Todo", description: null, workflowCommand: null, files: [] },
      allTools.filter((t) => t.name !== "run_sql"),
    );
    expect(without).not.toContain("Apply a new migration");
  });
});
