/**
 * Plan mode: the run may look but not touch. The model is offered only the tools that read (files, logs,
 * problems, the database's shape, web search); every other tool stays known to the run but hidden, and a
 * call to one (through the tool interface or written as text) is refused with a note, so nothing changes.
 * The user's message carries one line asking for the plan as a checklist.
 *
 * @example
 * const tools = toolsForMode(availableTools(deps), "plan"); // read tools offered, writes hidden and refusing
 */
import type { ChatMode } from "@shared/events/stream";
import { type Tool, ToolError } from "./tools/define-tool";

/** The tools a plan may use: none of them changes the project, its app or its database. */
export const PLAN_TOOL_NAMES: ReadonlySet<string> = new Set(["list_files", "read_file", "read_logs", "get_problems", "describe_database", "web_search"]);

export const PLAN_NOTE =
  "[Plan mode: change nothing. Read what you need with the read tools, then answer with a plan: one or two sentences on the approach, " +
  'then a Markdown checklist ("- [ ] …") of the concrete changes (files, packages, data). The user presses "Build this" to have it built.]';

/** The run's tools for its mode: in plan mode the writing tools are hidden (not offered) and refuse when called. */
export function toolsForMode(tools: Tool[], mode: ChatMode): Tool[] {
  if (mode === "build") return tools;
  return tools.map((tool) => (PLAN_TOOL_NAMES.has(tool.name) ? tool : refusing(tool)));
}

/** The tools offered to the model (the hidden ones are only there to refuse). */
export const offeredTools = (tools: Tool[]): Tool[] => tools.filter((t) => !t.hidden);

function refusing(tool: Tool): Tool {
  return {
    ...tool,
    hidden: true,
    async run() {
      throw new ToolError(
        `Refused: ${tool.name} changes the project, and this is plan mode, so nothing was done. Answer with the plan as a checklist; the user builds it with "Build this".`,
      );
    },
  };
}
