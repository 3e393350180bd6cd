import { expect, test } from "bun:test";
import { readSidebarCookie, SIDEBAR_COOKIE_MAX_AGE_S } from "./sidebar-state";

test("the sidebar starts expanded unless the cookie says false", () => {
  expect(readSidebarCookie("")).toBe(true);
  expect(readSidebarCookie("theme=dark; sidebar_state=true")).toBe(true);
  expect(readSidebarCookie("sidebar_state=false; other=1")).toBe(false);
  expect(readSidebarCookie("my_sidebar_state=false")).toBe(true);
});

test("the choice is kept for 7 days", () => {
  expect(SIDEBAR_COOKIE_MAX_AGE_S).toBe(604800);
});
