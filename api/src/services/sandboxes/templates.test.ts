import { describe, expect, test } from "bun:test";
import { KNOWLEDGE_PATH, MAX_KNOWLEDGE_BYTES } from "../chat-runs/project-knowledge";
import { loadTemplate, TEMPLATE_NAMES } from "./templates";

/** Words each template's AGENTS.md must name: its stack, and its entry file. */
const STACK = {
  react: ["React", "Vite", "src/App.tsx"],
  vite: ["TypeScript", "Vite", "src/main.ts"],
  node: ["Node.js", "server.js"],
  fullstack: ["Node.js", "React", "PostgreSQL", "DATABASE_URL", "db/migrations"],
};

describe("templates", () => {
  test("each ships an AGENTS.md describing its stack, whole within the system prompt's cap", async () => {
    for (const name of TEMPLATE_NAMES) {
      const file = (await loadTemplate(name)).files.find((f) => f.path === KNOWLEDGE_PATH);
      expect(file, `${name} has no ${KNOWLEDGE_PATH}`).toBeDefined();
      expect(file!.content.length).toBeLessThan(MAX_KNOWLEDGE_BYTES / 2);
      const text = new TextDecoder().decode(file!.content);
      for (const word of STACK[name]) expect(text).toContain(word);
      expect(text).toMatch(/## Where things go/);
    }
  });
});
