import { describe, expect, test } from "bun:test";
import { slugFromName, slugProblem, withSuffix } from "./slug";

describe("site names", () => {
  test("made from the project name: lowercase, accents dropped, hyphens, never reserved", () => {
    expect(slugFromName("My Todo App!")).toBe("my-todo-app");
    expect(slugFromName("Café Olé")).toBe("cafe-ole");
    expect(slugFromName("WWW")).toBe("www-site");
    expect(slugFromName("日本")).toBe("site");
    expect(slugProblem(slugFromName("x".repeat(80)))).toBeNull();
    expect(withSuffix("todo")).toMatch(/^todo-[0-9a-f]{4}$/);
  });

  test("refused: empty, too long, capitals, underscores, edge or double hyphens, reserved names", () => {
    expect(slugProblem("todo-2")).toBeNull();
    for (const bad of ["", "a".repeat(41), "Todo", "to_do", "-todo", "todo-", "to--do", "api", "admin", "www"]) {
      expect(slugProblem(bad)).not.toBeNull();
    }
  });
});
