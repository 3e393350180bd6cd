/**
 * File contents in a run's history that a newer copy made stale: when a file is rewritten (write_file) or
 * read whole again (read_file), its earlier whole reads, earlier written contents and its copy in
 * create_boilerplate's result are replaced by short stubs at once, not only when the window fills. The model has the newest copy; every request after would
 * otherwise pay for the old ones again.
 *
 * @example
 * stubStaleContents(messages); // after each tool round
 */
import type { ChatMessage } from "./chat-message";
import { shortenWrite } from "./context-window";

const STALE_READ = (path: string) => `[The contents of ${path} as read here are left out to save space: it was read again later, or rewritten.]`;

const STALE_SECTION = "[left out to save space: read again later, or rewritten]";

type Copy = { index: number; callId: string; kind: "read" | "write" | "template" };

/** A file's section in create_boilerplate's result: `--- path ---` then its text, up to the next section. */
const SECTION = /(^|\n\n)--- (.+?) ---\n([\s\S]*?)(?=\n\n--- .+? ---\n|\n\nAlso written|$)/g;

/** Stubs every whole copy of a file older than its newest one. Returns how many were stubbed. */
export function stubStaleContents(messages: ChatMessage[]): number {
  const copies = new Map<string, Copy[]>();
  const readCalls = new Map<string, string>();
  const templateCalls = new Set<string>();
  messages.forEach((m, index) => {
    if (m.role === "assistant") {
      for (const c of m.toolCalls ?? []) {
        const args = parse(c.arguments);
        if (typeof args?.path !== "string") continue;
        if (c.name === "write_file" && typeof args.content === "string" && !args.append) add(copies, args.path, { index, callId: c.id, kind: "write" });
        // Only whole reads: a range is a part, and the whole read before it is still the model's copy.
        if (c.name === "read_file" && args.startLine === undefined && args.endLine === undefined) readCalls.set(c.id, args.path);
      }
      for (const c of m.toolCalls ?? []) if (c.name === "create_boilerplate") templateCalls.add(c.id);
    } else if (m.role === "tool") {
      const path = readCalls.get(m.toolCallId);
      if (path && !m.content.startsWith("Error")) add(copies, path, { index, callId: m.toolCallId, kind: "read" });
      if (templateCalls.has(m.toolCallId)) {
        for (const section of m.content.matchAll(SECTION)) add(copies, section[2]!, { index, callId: m.toolCallId, kind: "template" });
      }
    }
  });
  let stubbed = 0;
  for (const [path, list] of copies) {
    for (const copy of list.slice(0, -1)) {
      const m = messages[copy.index]!;
      if (copy.kind === "read" && m.role === "tool" && !m.content.startsWith("[")) {
        m.content = STALE_READ(path);
        stubbed++;
      } else if (copy.kind === "template" && m.role === "tool") {
        const before = m.content;
        m.content = before.replace(SECTION, (whole, lead: string, at: string, text: string) =>
          at === path && !text.startsWith("[") ? `${lead}--- ${at} ---\n${STALE_SECTION}` : whole,
        );
        if (m.content !== before) stubbed++;
      } else if (copy.kind === "write" && m.role === "assistant" && m.toolCalls) {
        const before = m.toolCalls;
        m.toolCalls = before.map((c) => (c.id === copy.callId ? { ...c, arguments: shortenWrite(c.arguments) } : c));
        if (m.toolCalls.some((c, i) => c.arguments !== before[i]!.arguments)) stubbed++;
      }
    }
  }
  return stubbed;
}

function add(copies: Map<string, Copy[]>, path: string, copy: Copy): void {
  const key = path.replace(/^\.?\//, "");
  const list = copies.get(key) ?? [];
  list.push(copy);
  copies.set(key, list);
}

function parse(args: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(args) as unknown;
    return v && typeof v === "object" ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
