/**
 * Keeps a project's secret values out of what the model, the chat and the logs receive: every occurrence of a
 * value (6 or more characters) becomes `[secret NAME]`. Occurrences that overlap are hidden together under the
 * longest one's name, so no part of either shows. For streamed text, `createStreamRedactor` holds back the
 * end of what it was given while that end could still be the start of a value, so a value split across two
 * deltas is hidden too.
 *
 * @example
 * redactSecrets("key=sk-live-123", [{ name: "API_KEY", value: "sk-live-123" }]); // "key=[secret API_KEY]"
 * const stream = createStreamRedactor(() => secrets);
 * stream.push("key=sk-li"); // "key="  (the rest may be a value's start)
 * stream.push("ve-123 ok"); // "[secret API_KEY] ok"
 * stream.end(); // "" (what was still held back, redacted)
 */
import { MIN_REDACTED_SECRET_LENGTH } from "@shared/schemas/secrets";

export type SecretValue = { name: string; value: string };

/** The values worth hiding, longest first (so a value that contains another is named for itself). */
function usable(secrets: readonly SecretValue[]): SecretValue[] {
  return secrets.filter((s) => s.value.length >= MIN_REDACTED_SECRET_LENGTH).sort((a, b) => b.value.length - a.value.length);
}

type Span = { start: number; end: number; name: string; length: number };

/** Every occurrence of every value, merged where they overlap or touch-overlap, each named by its longest value. */
function spans(text: string, secrets: SecretValue[]): Span[] {
  const found: Span[] = [];
  for (const s of secrets) {
    for (let at = text.indexOf(s.value); at !== -1; at = text.indexOf(s.value, at + 1)) {
      found.push({ start: at, end: at + s.value.length, name: s.name, length: s.value.length });
    }
  }
  found.sort((a, b) => a.start - b.start || b.length - a.length);
  const merged: Span[] = [];
  for (const span of found) {
    const last = merged.at(-1);
    if (last && span.start < last.end) {
      if (span.length > last.length) Object.assign(last, { name: span.name, length: span.length });
      last.end = Math.max(last.end, span.end);
    } else merged.push({ ...span });
  }
  return merged;
}

function replaceSpans(text: string, found: Span[]): string {
  let out = "";
  let from = 0;
  for (const span of found) {
    out += `${text.slice(from, span.start)}[secret ${span.name}]`;
    from = span.end;
  }
  return out + text.slice(from);
}

export function redactSecrets(text: string, secrets: readonly SecretValue[]): string {
  const list = usable(secrets);
  if (!list.length || !text) return text;
  return replaceSpans(text, spans(text, list));
}

/** Every string inside `value` (objects and arrays walked), redacted; other values kept as they are. */
export function redactDeep<T>(value: T, secrets: readonly SecretValue[]): T {
  if (!usable(secrets).length) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactSecrets(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}

export type StreamRedactor = {
  /** Takes the next delta; returns what can be sent now (redacted), holding back a possible value's start. */
  push(delta: string): string;
  /** The stream ended (or something else must be sent first): whatever was held back, redacted. */
  end(): string;
};

/** `secrets` is read at every push, so values set while the stream runs are hidden from then on. */
export function createStreamRedactor(secrets: () => readonly SecretValue[]): StreamRedactor {
  let pending = "";
  return {
    push(delta) {
      const list = usable(secrets());
      const text = pending + delta;
      if (!list.length) {
        pending = "";
        return text;
      }
      // Hold back from the first place where the rest of the text is a value's unfinished start...
      let cut = text.length;
      for (let i = Math.max(0, text.length - list[0]!.value.length + 1); i < text.length; i++) {
        const rest = text.slice(i);
        if (list.some((s) => s.value.length > rest.length && s.value.startsWith(rest))) {
          cut = i;
          break;
        }
      }
      // ...and from the start of any occurrence that reaches past that place, so it is never sent in part.
      for (let moved = true; moved; ) {
        moved = false;
        for (const span of spans(text, list)) {
          if (span.start < cut && span.end > cut) {
            cut = span.start;
            moved = true;
          }
        }
      }
      pending = text.slice(cut);
      return redactSecrets(text.slice(0, cut), list);
    },
    end() {
      const rest = pending;
      pending = "";
      return redactSecrets(rest, secrets());
    },
  };
}
