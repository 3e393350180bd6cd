/**
 * Tool arguments as models loosely write them, made to fit before they are refused: raw newlines and tabs
 * inside JSON strings (escaped), and arrays, objects, numbers and booleans sent as strings (coerced where the
 * tool's schema wants them, guided by the schema's own complaints).
 */
import type { z } from "zod";

/** JSON.parse, after escaping raw control characters inside strings when the text is not valid as sent. */
export function parseLooseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (error) {
    const repaired = escapeControlsInStrings(raw);
    if (repaired === raw) throw error;
    try {
      return JSON.parse(repaired);
    } catch {
      throw error;
    }
  }
}

function escapeControlsInStrings(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString && c === "\\") {
      out += c + (text[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === '"') inString = !inString;
    if (inString && c < " ") out += c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    else out += c;
  }
  return out;
}

/** A string read as the type the schema expected, or undefined when it does not read as one. */
function coerce(value: string, expected: string): unknown {
  const t = value.trim();
  if (expected === "number") return t !== "" && Number.isFinite(Number(t)) ? Number(t) : undefined;
  if (expected === "boolean") return t === "true" ? true : t === "false" ? false : undefined;
  if (expected === "array" || expected === "object") {
    try {
      const parsed = parseLooseJson(t);
      if (expected === "array" ? Array.isArray(parsed) : parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Parses `input` with `schema`; on type errors where a string was sent for a number, boolean, array or object,
 * replaces those strings with what they read as and tries again (a few rounds, for strings nested in strings).
 */
export function parseWithCoercion<S extends z.ZodType>(schema: S, input: unknown): ReturnType<S["safeParse"]> {
  let value = input;
  let result = schema.safeParse(value);
  for (let round = 0; round < 3 && !result.success; round++) {
    let changed = false;
    const copy = structuredClone(value);
    for (const issue of result.error.issues) {
      if (issue.code !== "invalid_type") continue;
      const at = locate(copy, issue.path);
      if (!at || typeof at.get() !== "string") continue;
      const next = coerce(at.get() as string, String(issue.expected));
      if (next === undefined) continue;
      at.set(next);
      changed = true;
    }
    if (!changed) break;
    value = copy;
    result = schema.safeParse(value);
  }
  return result as ReturnType<S["safeParse"]>;
}

function locate(root: unknown, path: readonly PropertyKey[]): { get(): unknown; set(v: unknown): void } | null {
  if (path.length === 0) return null;
  let parent = root as Record<PropertyKey, unknown>;
  for (const key of path.slice(0, -1)) {
    const next = parent?.[key];
    if (next === null || typeof next !== "object") return null;
    parent = next as Record<PropertyKey, unknown>;
  }
  const last = path.at(-1)!;
  return { get: () => parent[last], set: (v) => void (parent[last] = v) };
}
