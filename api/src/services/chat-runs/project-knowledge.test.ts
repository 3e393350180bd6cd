import { describe, expect, test } from "bun:test";
import { capKnowledge } from "./project-knowledge";

describe("capKnowledge", () => {
  test("a short file is kept whole", () => {
    expect(capKnowledge("# Stack\nReact\n")).toEqual({ content: "# Stack\nReact\n", size: 14, truncated: false });
  });

  test("a long file is cut within the cap, at a line break near the end", () => {
    const text = "0123456789\n".repeat(20); // 220 bytes
    const capped = capKnowledge(text, 100);
    expect(capped).toMatchObject({ size: 220, truncated: true });
    expect(capped.content).toBe("0123456789\n".repeat(9));
  });

  test("never cuts a character in half", () => {
    const capped = capKnowledge("é".repeat(100), 51); // 2 bytes each: 51 falls inside one
    expect(capped.content).toBe("é".repeat(25));
    expect(capped.content).not.toContain("\uFFFD");
  });
});
