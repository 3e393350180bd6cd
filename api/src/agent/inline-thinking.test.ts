import { describe, expect, test } from "bun:test";
import { InlineThinkingSplitter } from "./inline-thinking";

function split(parts: string[]) {
  let text = "";
  let thinking = "";
  const s = new InlineThinkingSplitter({ text: (t) => (text += t), thinking: (t) => (thinking += t) });
  for (const p of parts) s.push(p);
  s.end();
  return { text, thinking };
}

describe("inline thinking", () => {
  test("<think> and <thinking> become thinking, even with tags cut at any chunk boundary", () => {
    const whole = "<think>\nPlan: write it.</think>\nHere it is. <thinking>check</thinking>Done.";
    const expected = { text: "Here it is. Done.", thinking: "Plan: write it.check" };
    expect(split([whole])).toEqual(expected);
    // every split point, one character at a time and in pairs
    for (let i = 1; i < whole.length; i++) expect(split([whole.slice(0, i), whole.slice(i)])).toEqual(expected);
    expect(split([...whole])).toEqual(expected);
  });

  test("a lone < or an unfinished tag at the end is text", () => {
    expect(split(["a < b <", "br> <thi"])).toEqual({ text: "a < b <br> <thi", thinking: "" });
  });
});
