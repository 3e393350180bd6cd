import { expect, test } from "bun:test";
import { sourceJsonName, withRefreshParam } from "./preview-url";

test("adds _refresh to a bare preview URL", () => {
  expect(withRefreshParam("http://5173-abc123.localhost:3000", 7)).toBe("http://5173-abc123.localhost:3000/?_refresh=7");
});

test("keeps the path, other parameters and the hash", () => {
  expect(withRefreshParam("https://5173-abc.example.com/app?x=1#top", 9)).toBe("https://5173-abc.example.com/app?x=1&_refresh=9#top");
});

test("replaces an older _refresh instead of adding a second one", () => {
  expect(withRefreshParam("http://h.localhost/?_refresh=1&y=2", 2)).toBe("http://h.localhost/?_refresh=2&y=2");
});

test("a relative URL still gets the parameter", () => {
  expect(withRefreshParam("/preview", 3)).toBe("/preview?_refresh=3");
  expect(withRefreshParam("/preview?a=b#h", 3)).toBe("/preview?a=b&_refresh=3#h");
});

test("the source download is named after the project", () => {
  expect(sourceJsonName("My App")).toBe("My App-source.json");
});
