/** Hiding secret values: plain text, overlapping values, nested data, and values split across streamed deltas. */
import { describe, expect, test } from "bun:test";
import { createStreamRedactor, redactDeep, redactSecrets, type SecretValue } from "./secret-redactor";

const KEY: SecretValue = { name: "API_KEY", value: "sk-live-123456" };

/** Feeds `text` cut at every given place and returns what the stream sent, joined. */
function streamed(text: string, cuts: number[], secrets: SecretValue[]): string {
  const stream = createStreamRedactor(() => secrets);
  let out = "";
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    out += stream.push(text.slice(from, cut));
    from = cut;
  }
  return out + stream.end();
}

describe("redactSecrets", () => {
  test("every occurrence becomes [secret NAME]", () => {
    expect(redactSecrets(`a ${KEY.value} b ${KEY.value}`, [KEY])).toBe("a [secret API_KEY] b [secret API_KEY]");
  });

  test("values under 6 characters are left alone (too likely by chance)", () => {
    expect(redactSecrets("port 12345 and abc", [{ name: "SHORT", value: "12345" }])).toBe("port 12345 and abc");
    expect(redactSecrets("x 123456 y", [{ name: "SIX", value: "123456" }])).toBe("x [secret SIX] y");
  });

  test("longest first: a value that contains another is named for itself", () => {
    const short = { name: "SHORT", value: "abcdef" };
    const long = { name: "LONG", value: "abcdefghij" };
    expect(redactSecrets("abcdefghij and abcdef", [short, long])).toBe("[secret LONG] and [secret SHORT]");
    expect(redactSecrets("xxabcdefghijxx", [long, short])).toBe("xx[secret LONG]xx");
  });

  test("overlapping occurrences are hidden together: no part of either shows", () => {
    const a = { name: "A", value: "abcdef123" };
    const b = { name: "B", value: "123ghijklmn" };
    expect(redactSecrets("<abcdef123ghijklmn>", [a, b])).toBe("<[secret B]>");
  });

  test("strings inside objects and arrays are redacted; other values kept", () => {
    const event = { type: "tool_complete", result: `got ${KEY.value}`, list: [KEY.value, 3], ok: true };
    expect(redactDeep(event, [KEY])).toEqual({ type: "tool_complete", result: "got [secret API_KEY]", list: ["[secret API_KEY]", 3], ok: true });
  });
});

describe("createStreamRedactor", () => {
  test("a value split across deltas, at every possible place, never shows", () => {
    const text = `before ${KEY.value} after`;
    for (let cut = 1; cut < text.length; cut++) expect(streamed(text, [cut], [KEY])).toBe("before [secret API_KEY] after");
    // One character at a time.
    expect(streamed(text, [...text].map((_, i) => i).slice(1), [KEY])).toBe("before [secret API_KEY] after");
  });

  test("nothing sent ever holds part of a value, while text that cannot be one flows at once", () => {
    const stream = createStreamRedactor(() => [KEY]);
    expect(stream.push("hello sk-li")).toBe("hello ");
    expect(stream.push("ve-12")).toBe("");
    expect(stream.push("3456 done")).toBe("[secret API_KEY] done");
    expect(stream.push("sk-lib")).toBe("sk-lib"); // no value starts like this: sent at once
    expect(stream.end()).toBe("");
  });

  test("a start that turns out not to be a value is sent when the stream ends", () => {
    const stream = createStreamRedactor(() => [KEY]);
    expect(stream.push("the end sk-live")).toBe("the end ");
    expect(stream.end()).toBe("sk-live");
  });

  test("overlapping values split across deltas: the longer one is waited for", () => {
    const short = { name: "SHORT", value: "abcdef" };
    const long = { name: "LONG", value: "abcdefghij" };
    const text = "x abcdefghij y abcdef";
    for (let cut = 1; cut < text.length; cut++) expect(streamed(text, [cut], [short, long])).toBe("x [secret LONG] y [secret SHORT]");
    const a = { name: "A", value: "abcdef123" };
    const b = { name: "B", value: "123ghijklmn" };
    for (let cut = 1; cut < 20; cut++) expect(streamed("<abcdef123ghijklmn>", [cut], [a, b])).toBe("<[secret B]>");
  });

  test("a value set while the stream runs is hidden from then on", () => {
    const secrets: SecretValue[] = [];
    const stream = createStreamRedactor(() => secrets);
    expect(stream.push("one ")).toBe("one ");
    secrets.push(KEY);
    expect(stream.push(`two ${KEY.value.slice(0, 4)}`)).toBe("two ");
    expect(stream.push(KEY.value.slice(4))).toBe("[secret API_KEY]"); // complete, and no longer value starts so
    expect(stream.end()).toBe("");
  });
});
