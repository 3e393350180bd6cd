import { describe, expect, test } from "bun:test";
import { projectNameFromPrompt } from "./project-name";

describe("projectNameFromPrompt", () => {
  test("the request's object, without the lead verb or trailing clauses", () => {
    expect(projectNameFromPrompt("Build a React todo app with local storage")).toBe("React todo app");
    expect(projectNameFromPrompt("Create a Vite landing page for a coffee shop")).toBe("Vite landing page");
    expect(projectNameFromPrompt("Write a Node.js API that returns random quotes")).toBe("Node.js API");
    expect(projectNameFromPrompt("please make me a habit tracker. It should have streaks")).toBe("Habit tracker");
  });

  test("short and never empty", () => {
    expect(projectNameFromPrompt("   ")).toBe("New project");
    expect(projectNameFromPrompt("Build a")).toBe("New project");
    expect(projectNameFromPrompt("recipe planner weekly shopping list generator export pdf").split(" ").length).toBeLessThanOrEqual(5);
    expect(projectNameFromPrompt("x".repeat(300)).length).toBeLessThanOrEqual(40);
  });
});
