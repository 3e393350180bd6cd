import { expect, test } from "bun:test";
import { outputBatches } from "./process-events";

const line = (text: string) => ({ t: "2026-01-01T00:00:00.000Z", stream: "stdout" as const, text });

test("output is split into events that stay under NOTIFY's payload limit, escapes and long lines included", () => {
  const colour = "\u001b[32m".repeat(400); // 5 characters each, 10 bytes each as JSON
  const lines = [line("a"), line(colour), line("é".repeat(3000)), line("x".repeat(20_000)), line("b")];
  const batches = outputBatches(lines, 4000);
  for (const batch of batches) expect(Buffer.byteLength(JSON.stringify(batch))).toBeLessThan(7000);
  const texts = batches.flat().map((l) => l.text);
  expect(texts.length).toBe(5);
  expect(texts[0]).toBe("a");
  expect(texts[3]!.endsWith("…")).toBe(true);
  expect(texts.at(-1)).toBe("b");
  expect(outputBatches([line("a"), line("b")], 4000)).toEqual([[line("a"), line("b")]]);
});
