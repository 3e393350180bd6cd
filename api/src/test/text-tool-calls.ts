/**
 * The text forms models without a server-side tool parser write tool calls in: Mistral's `[TOOL_CALLS]`
 * (a JSON list, or v11's `name[ARGS]{…}`), a bare JSON list of calls, DeepSeek's tool-call tokens (V3/R1
 * with a fenced json block, V3.1 with the arguments inline), Llama 3.2+/4 pythonic calls and Llama 3.1's
 * `<|python_tag|>` JSON.
 */
export type TextCallForm = "mistral" | "mistral-args" | "json-array" | "deepseek" | "deepseek-v31" | "pythonic" | "python-tag";

export function textToolCalls(form: TextCallForm, calls: { name: string; arguments: Record<string, unknown> }[]): string {
  const json = (c: (typeof calls)[number]) => JSON.stringify({ name: c.name, arguments: c.arguments });
  const py = (v: unknown): string =>
    typeof v === "string"
      ? `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n")}"`
      : typeof v === "boolean"
        ? v
          ? "True"
          : "False"
        : v === null
          ? "None"
          : JSON.stringify(v);
  const dsk = (s: string) => s.replaceAll("|", "\uFF5C").replaceAll("_", "\u2581");
  switch (form) {
    case "mistral":
      return `[TOOL_CALLS][${calls.map(json).join(", ")}]`;
    case "mistral-args":
      return calls.map((c) => `[TOOL_CALLS]${c.name}[ARGS]${JSON.stringify(c.arguments)}`).join("");
    case "json-array":
      return `[${calls.map(json).join(",\n ")}]`;
    case "deepseek":
      return `${dsk("<|tool_calls_begin|>")}${calls
        .map(
          (c) =>
            `${dsk("<|tool_call_begin|>")}function${dsk("<|tool_sep|>")}${c.name}\n\`\`\`json\n${JSON.stringify(c.arguments)}\n\`\`\`${dsk("<|tool_call_end|>")}`,
        )
        .join("\n")}${dsk("<|tool_calls_end|>")}`;
    case "deepseek-v31":
      return `${dsk("<|tool_calls_begin|>")}${calls
        .map((c) => `${dsk("<|tool_call_begin|>")}${c.name}${dsk("<|tool_sep|>")}${JSON.stringify(c.arguments)}${dsk("<|tool_call_end|>")}`)
        .join("")}${dsk("<|tool_calls_end|>")}`;
    case "pythonic":
      return `[${calls
        .map(
          (c) =>
            `${c.name}(${Object.entries(c.arguments)
              .map(([k, v]) => `${k}=${py(v)}`)
              .join(", ")})`,
        )
        .join(", ")}]`;
    case "python-tag":
      return calls.map((c) => `<|python_tag|>${JSON.stringify({ name: c.name, parameters: c.arguments })}`).join("\n");
  }
}
