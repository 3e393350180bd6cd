import { expect, test } from "bun:test";
import { BROWSER_ZIP_MAX_BYTES, BROWSER_ZIP_MAX_FILES, zipSourceFor } from "./zip-source";

const files = (count: number, size = 100) => Array.from({ length: count }, () => ({ size }));

test("a small project is zipped in the browser, up to and including the limits", () => {
  expect(zipSourceFor([])).toBe("browser");
  expect(zipSourceFor(files(12))).toBe("browser");
  expect(zipSourceFor(files(BROWSER_ZIP_MAX_FILES))).toBe("browser");
  expect(zipSourceFor([{ size: BROWSER_ZIP_MAX_BYTES }])).toBe("browser");
});

test("one file more than the count limit goes to the server's streamed zip", () => {
  expect(zipSourceFor(files(BROWSER_ZIP_MAX_FILES + 1, 1))).toBe("server");
});

test("a few files whose sizes add up to more than the byte limit go to the server", () => {
  const third = Math.ceil(BROWSER_ZIP_MAX_BYTES / 3);
  expect(zipSourceFor(files(3, third))).toBe("server");
  expect(zipSourceFor([{ size: BROWSER_ZIP_MAX_BYTES }, { size: 1 }])).toBe("server");
});
