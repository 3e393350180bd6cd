import { expect, test } from "bun:test";
import { formatFileSize } from "./format-file-size";

test("bytes below 1 KB stay in B", () => {
  expect(formatFileSize(0)).toBe("0 B");
  expect(formatFileSize(1)).toBe("1 B");
  expect(formatFileSize(1023)).toBe("1023 B");
});

test("base 1024, at most 2 decimals, trailing zeros dropped", () => {
  expect(formatFileSize(1024)).toBe("1 KB");
  expect(formatFileSize(1536)).toBe("1.5 KB");
  expect(formatFileSize(1234)).toBe("1.21 KB");
  expect(formatFileSize(1024 * 1024)).toBe("1 MB");
  expect(formatFileSize(5.25 * 1024 * 1024)).toBe("5.25 MB");
  expect(formatFileSize(1024 ** 3)).toBe("1 GB");
  expect(formatFileSize(2.345 * 1024 ** 3)).toBe("2.35 GB");
});

test("GB is the largest unit; rounding up to 1024 moves to the next unit", () => {
  expect(formatFileSize(2048 * 1024 ** 3)).toBe("2048 GB");
  expect(formatFileSize(1024 * 1024 - 1)).toBe("1 MB");
});

test("nonsense sizes read as 0 B", () => {
  expect(formatFileSize(-5)).toBe("0 B");
  expect(formatFileSize(Number.NaN)).toBe("0 B");
});
