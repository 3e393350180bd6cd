/**
 * Tools for a server that refuses them in the API (Ollama for a model without tool support, vLLM started
 * without `--enable-auto-tool-choice`): they are described in the system prompt instead, with the
 * `<tool_call>` form to call them in (read back by `text-tool-calls.ts`), and the conversation's tool turns
 * are written as text, since such a server's template has no place for them.
 *
 * @example
 * const messages = withToolsInPrompt(conversation, specs); // no tool roles, tools described in the system message
 */
import type { ChatMessage, ToolSpec } from "./chat-message";

/** Ollama's and vLLM's (and llama.cpp's, LM Studio's) ways of saying the model or server takes no tools. */
const REFUSALS =
  /does not support tools|tool[ _-]?choice requires|enable-auto-tool-choice|tools? (are|is) not supported|not support(ed)? (function|tool)[ _-]?call|no tool support/i;

export const refusesTools = (message: string) => REFUSALS.test(message);

function describe(tools: ToolSpec[]): string {
  const list = tools.map((t) => `- ${t.name}: ${t.description}\n  arguments (JSON Schema): ${JSON.stringify(t.parameters)}`).join("\n");
  return (
    "\n\n## Calling tools\n" +
    "To call a tool, write the call in your answer, alone, exactly like this (one block per call):\n" +
    '<tool_call>\n{"name": "tool_name", "arguments": {"key": "value"}}\n</tool_call>\n' +
    "Then stop: the tool's result comes back in the next message. Answer in plain text, without a call, when the work is done.\n" +
    `The tools:\n${list}`
  );
}

const callText = (c: { name: string; arguments: string }) => {
  let args: unknown = c.arguments;
  try {
    args = JSON.parse(c.arguments);
  } catch {}
  return `<tool_call>\n${JSON.stringify({ name: c.name, arguments: args })}\n</tool_call>`;
};

/** The conversation for a server without tools: tools described in the system message, tool turns as text. */
export function withToolsInPrompt(messages: ChatMessage[], tools: ToolSpec[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const names = new Map<string, string>();
  const system = messages.findIndex((m) => m.role === "system");
  if (system === -1) out.push({ role: "system", content: describe(tools).trimStart() });
  messages.forEach((m, i) => {
    if (i === system && m.role === "system") out.push({ role: "system", content: m.content + describe(tools) });
    else if (m.role === "assistant" && m.toolCalls?.length) {
      for (const c of m.toolCalls) names.set(c.id, c.name);
      out.push({ role: "assistant", content: [m.content, ...m.toolCalls.map(callText)].filter(Boolean).join("\n") });
    } else if (m.role === "tool") {
      const result = `Result of ${names.get(m.toolCallId) ?? "the tool"}:\n${m.content}`;
      // Results of one turn's calls are one message: templates want user and assistant turns to alternate.
      const last = out.at(-1);
      if (last?.role === "user" && i > 0 && messages[i - 1]!.role === "tool") last.content += `\n\n${result}`;
      else out.push({ role: "user", content: result });
    } else out.push(m);
  });
  return out;
}
