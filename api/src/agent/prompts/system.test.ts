import { describe, expect, test } from "bun:test";
import { allTools } from "../tools/registry";
import { systemPrompt } from "./system";

describe("system prompt", () => {
  test("names the project, its files and run command, every tool, the templates and how servers must run", () => {
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
    );
    expect(prompt).toContain("Name: Todo\nDescription: A todo list\nRun command (workflow): npm run dev");
    expect(prompt).toContain("Files:\n- package.json (300 bytes)\n- src/App.tsx (120 bytes)");
    for (const tool of allTools) expect(prompt).toContain(`- ${tool.name}: `);
    expect(prompt).toContain(
      "react: React + Vite + TypeScript; vite: plain Vite + TypeScript; node: Node.js server; fullstack: React + Vite with a Node.js API",
    );
    expect(prompt).toContain("must listen on 0.0.0.0");
    expect(prompt).toContain("background: true");
    expect(prompt).toContain("Call tools only through the tool-calling interface");
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
