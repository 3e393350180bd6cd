import { expect, test } from "bun:test";
import { addTab, canAddTab, closeTab, firstTabs, MAX_TABS, selectTab } from "./terminal-tabs";

test("a new tab is added at the end and becomes active, up to the limit", () => {
  let s = firstTabs();
  expect(s.tabs.map((t) => t.title)).toEqual(["bash 1"]);
  s = addTab(s);
  expect(s.tabs.map((t) => t.id)).toEqual([1, 2]);
  expect(s.active).toBe(2);
  while (canAddTab(s)) s = addTab(s);
  expect(s.tabs.length).toBe(MAX_TABS);
  expect(addTab(s)).toBe(s);
});

test("closing the active tab activates its neighbour; closing another keeps the active one", () => {
  let s = addTab(addTab(firstTabs())); // 1 2 3, active 3
  s = selectTab(s, 2);
  s = closeTab(s, 2);
  expect(s.tabs.map((t) => t.id)).toEqual([1, 3]);
  expect(s.active).toBe(3);
  s = closeTab(s, 1);
  expect(s.active).toBe(3);
  s = closeTab(s, 3);
  // Never empty: a fresh tab with a new id (a new session, not the old one).
  expect(s.tabs).toEqual([{ id: 4, title: "bash 4" }]);
  expect(s.active).toBe(4);
  expect(closeTab(s, 99)).toBe(s);
  expect(selectTab(s, 99)).toBe(s);
});
