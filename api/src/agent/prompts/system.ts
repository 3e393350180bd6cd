/**
 * The system prompt: who the agent is, the project it works on (its files and run command), the project's
 * own knowledge (AGENTS.md), the templates, and how to work: one rule for running the app so the Preview can
 * reach it, the output limit as a number, and a few lines on layout, design, file structure, installs and
 * the user's language. The tools are not listed: their schemas, sent with every request, describe them.
 */
import type { ProjectKnowledge } from "../ports";
import type { Tool } from "../tools/define-tool";

export type PromptProject = {
  name: string;
  description: string | null;
  workflowCommand: string | null;
  files: { path: string; size: number }[];
  knowledge?: ProjectKnowledge | null;
};

const MAX_FILES_LISTED = 150;

export function systemPrompt(project: PromptProject, tools: Tool[], notes: string[] = [], o: { maxOutputTokens?: number } = {}): string {
  const names = new Set(tools.map((t) => t.name));
  const files = project.files
    .slice()
    .sort((a, b) => a.path.localeCompare(b.path))
    .slice(0, MAX_FILES_LISTED)
    .map((f) => `- ${f.path} (${f.size} bytes)`);
  if (project.files.length > MAX_FILES_LISTED) files.push(`- … and ${project.files.length - MAX_FILES_LISTED} more (use list_files)`);

  const sections = [
    `You are an expert software engineer working inside an AI app builder. The user describes what they want; you build it ` +
      `by calling tools that edit the project's files and run commands in the project's isolated Linux sandbox. ` +
      `Work step by step, keep the user informed in short sentences, and finish with a brief summary of what you did and how to use it. ` +
      `Write to the user in the language the user writes in.`,

    `## Project\nName: ${project.name}${project.description ? `\nDescription: ${project.description}` : ""}\n` +
      `Run command (workflow): ${project.workflowCommand ?? "not set yet"}\n` +
      (files.length ? `Files:\n${files.join("\n")}` : "Files: none yet (a new project)."),

    `## How to work\n` +
      [
        "- Call tools only through the tool-calling interface (function calls). Never write a tool call as text, JSON or XML in your answer: it is not run.",
        names.has("create_boilerplate")
          ? "- For a new app, start with create_boilerplate (react: React + Vite + TypeScript; vite: plain Vite + TypeScript; node: Node.js server; fullstack: React + Vite with a Node.js API on one port and a PostgreSQL database, for apps that must remember data). It installs dependencies and starts the app. Then change the files it created."
          : null,
        "- Read a file before editing it (read_file shows line numbers; they are not part of the file). Use edit_file for small changes (each search text must match exactly once; several edits can go in one call) and write_file for new files or full rewrites. Always write complete file contents, never placeholders. " +
          `Each reply may hold at most ${o.maxOutputTokens ? `${o.maxOutputTokens.toLocaleString("en")} tokens` : "a limited number of tokens"} of output, tool calls included: split a large file into modules, or write it in parts with write_file and append: true.`,
        "- Structure: one component per file in src/components, pages in src/pages, shared logic in src/lib; keep files short (under about 200 lines).",
        "- Layout and design: build complete, responsive pages with a clear layout (header, content, spacing) and a consistent, modern look, using the project's styling (Tailwind classes where it is installed), not unstyled HTML. Use real content the user asked for, not lorem ipsum.",
        "- Paths are relative to the project root (e.g. src/App.tsx). The project's files are stored and synced to the sandbox automatically.",
        names.has("run_shell")
          ? "- Install a package with run_shell (e.g. `npm install axios`) before you import it; import only packages that are in package.json. Commands run from the project root with a time limit; never run interactive commands."
          : null,
        serversRule(names),
        "- The user cannot run commands, use a terminal or open the sandbox's local addresses (localhost, 127.0.0.1): the Preview shows the app. Never tell the user to run a command or open a local URL; do it yourself with the tools.",
        names.has("run_sql")
          ? "- Data: the project has its own PostgreSQL database for development. Every process in the sandbox (the app, run_shell, run_code) gets its address in DATABASE_URL; read it from there (e.g. `postgres(process.env.DATABASE_URL)` with the postgres package, or pg, Drizzle, Prisma), never hard-code one. Change the schema only through migrations: files db/migrations/NNN_name.sql (001_init.sql, 002_add_due_date.sql, …), one change each, never edited once applied. Apply a new migration to the development database yourself with run_sql (the fullstack template's server also applies pending ones on start and records them in the _migrations table: record yours there too); publishing applies them to production. Use describe_database to see the tables and run_sql to check data. DROP, TRUNCATE and DELETE/UPDATE without WHERE are shown to the user as warnings: use them only when asked."
          : null,
        names.has("run_code") ? "- Use run_code to try out a small Python, JavaScript or TypeScript snippet." : null,
        names.has("web_search") ? "- Use web_search when you need current documentation or an error explained." : null,
        "- When a tool returns an error, read it, fix the cause and try again; do not repeat the same failing call.",
      ]
        .filter(Boolean)
        .join("\n"),
  ];
  if (project.knowledge) sections.splice(2, 0, knowledgeSection(project.knowledge));
  if (notes.length) sections.push(`## Notes\n${notes.map((n) => `- ${n}`).join("\n")}`);
  return sections.join("\n\n");
}

/** The user's own instructions for this project; a cut file says so, so the agent reads the rest when it matters. */
function knowledgeSection(k: ProjectKnowledge): string {
  const cut = k.truncated
    ? `\n\n(AGENTS.md is ${k.size} bytes; only its first ${new TextEncoder().encode(k.content).length} bytes are shown above. Read the rest with read_file when you need it.)`
    : "";
  return `## Project knowledge (AGENTS.md)\nThe project's own notes and rules, kept by the user in AGENTS.md at the project root. Follow them, and keep the file up to date when the stack or the layout changes.\n\n${k.content.trimEnd()}${cut}`;
}

/**
 * How the app is started, in one rule: with restart_app the workflow command is the only way (a run_shell
 * background server could not be stopped later); without it, set_workflow_command and a server that restarts
 * itself; with neither, run_shell in the background.
 */
function serversRule(names: Set<string>): string | null {
  const host = "It must listen on 0.0.0.0 (not localhost) so the Preview can reach it; a Vite dev server reloads edits by itself.";
  if (names.has("set_workflow_command") && names.has("restart_app")) {
    return (
      `- Running the app: create_boilerplate starts it. Otherwise record how it starts, and its port, with set_workflow_command, then start or restart it with restart_app; never start a server with run_shell. ${host} ` +
      "When you finish after changing files, the app is checked and any problems come back to you: read_logs and get_problems show them."
    );
  }
  if (names.has("set_workflow_command")) {
    return (
      `- Running the app: record how it starts with set_workflow_command (create_boilerplate does it for you). ${host} ` +
      "A background server cannot be stopped from a later command (each command runs in its own process space), so start Node servers with `node --watch server.js`: they restart by themselves when their files change."
    );
  }
  if (names.has("run_shell")) {
    return `- Running the app: start its server with run_shell and background: true, never in the foreground (it would hang until the time limit). ${host} For Vite use \`npm run dev -- --host 0.0.0.0\`.`;
  }
  return null;
}
