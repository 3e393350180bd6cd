import { expect, test } from "bun:test";
import { isSignedInPath } from "./project-location";

test("the signed-in layout covers /projects, /admin and the five views of a project, nothing else", () => {
  for (const path of [
    "/projects",
    "/admin",
    "/project/abc/chat",
    "/project/abc/files",
    "/project/abc/database",
    "/project/abc/preview",
    "/project/abc/terminal",
  ]) {
    expect(isSignedInPath(path)).toBe(true);
  }
  for (const path of ["/", "/login", "/project/abc", "/project/abc/settings", "/projects/abc", "/project//chat"]) {
    expect(isSignedInPath(path)).toBe(false);
  }
});
