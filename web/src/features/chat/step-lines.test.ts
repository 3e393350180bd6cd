import { describe, expect, test } from "bun:test";
import { classifyStepLine, isStepActive, splitSteps } from "./step-lines";

describe("classifyStepLine", () => {
  test("in-progress prefixes", () => {
    for (const line of ["Creating React app", "Installing dependencies", "Starting dev server"]) expect(classifyStepLine(line)).toBe("in_progress");
  });
  test("completed prefixes", () => {
    for (const line of [
      "Created src/App.tsx",
      "Edited src/main.ts",
      "Installed 42 packages",
      "Configured workflow",
      "Ran shell: ls -la",
      "Started: npm run dev",
    ]) {
      expect(classifyStepLine(line)).toBe("completed");
    }
  });
  test("the app check's steps: checking, its results, restarts; prose that starts alike is not one", () => {
    for (const line of ["Checking the app…", "Restarting the app"]) expect(classifyStepLine(line)).toBe("in_progress");
    for (const line of [
      "App runs without errors",
      "Found 2 problems, fixing (1/3)",
      "Found 1 problem, fixing (3/3)",
      "Found 1 problem (1 fixed, 1 left), fixing (2/3)",
      "Found 2 problems (0 fixed, 1 left, 1 new), fixing (3/3)",
      "The model described the work without doing it; asked it to use its tools",
      "The model was repeating the same calls; told it to move on",
      "App still has 1 problem after 3 repair rounds",
      "Restarted the app (running on port 5173)",
    ]) {
      expect(classifyStepLine(line)).toBe("completed");
    }
    for (const line of ["Found the bug in App.tsx", "App still needs a logo", "Checking your code now"]) expect(classifyStepLine(line)).toBeNull();
  });
  test("other lines are not steps", () => {
    for (const line of ["Here is your app", "I created it", "Ran the tests", "Started the server", "", "- Created list item"])
      expect(classifyStepLine(line)).toBeNull();
  });
});

describe("splitSteps", () => {
  test("cuts text and step lines apart", () => {
    expect(splitSteps("Sure, building it.\nCreating React app\nCreated React app (12 files)\n\nAll **done**.")).toEqual([
      { kind: "text", text: "Sure, building it." },
      { kind: "step", text: "Creating React app", status: "in_progress" },
      { kind: "step", text: "Created React app (12 files)", status: "completed" },
      { kind: "text", text: "\nAll **done**." },
    ]);
  });

  test("leaves lines inside fenced code alone", () => {
    const content = "Output:\n```\nCreated file.txt\nStarted: x\n```\nEdited a.ts";
    expect(splitSteps(content)).toEqual([
      { kind: "text", text: "Output:\n```\nCreated file.txt\nStarted: x\n```" },
      { kind: "step", text: "Edited a.ts", status: "completed" },
    ]);
  });

  test("an unclosed fence (still streaming) keeps the rest as code", () => {
    expect(splitSteps("```sh\nInstalling deps")).toEqual([{ kind: "text", text: "```sh\nInstalling deps" }]);
  });

  test("an in-progress step spins only while streaming and until a later step arrives", () => {
    const segments = splitSteps("Creating app\nhello");
    expect(isStepActive(segments, 0, true)).toBe(true);
    expect(isStepActive(segments, 0, false)).toBe(false);
    const later = splitSteps("Creating app\nCreated app");
    expect(isStepActive(later, 0, true)).toBe(false);
  });
});

test("run_sql's destructive statements are warning steps", () => {
  expect(splitSteps("Applying.\nDestructive SQL ran: DROP TABLE todos\nDone.")).toEqual([
    { kind: "text", text: "Applying." },
    { kind: "step", text: "Destructive SQL ran: DROP TABLE todos", status: "warning" },
    { kind: "text", text: "Done." },
  ]);
});
