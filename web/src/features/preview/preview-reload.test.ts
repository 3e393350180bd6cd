import { expect, test } from "bun:test";
import { previewReloads, requestPreviewReload, subscribePreviewReloads } from "./preview-reload";

test("a reload request counts for its project only and tells the subscribers", () => {
  const a = `a-${crypto.randomUUID()}`;
  const b = `b-${crypto.randomUUID()}`;
  let told = 0;
  const stop = subscribePreviewReloads(() => told++);
  requestPreviewReload(a);
  requestPreviewReload(a);
  expect([previewReloads(a), previewReloads(b), told]).toEqual([2, 0, 2]);
  stop();
  requestPreviewReload(b);
  expect([previewReloads(b), told]).toEqual([1, 2]);
});
