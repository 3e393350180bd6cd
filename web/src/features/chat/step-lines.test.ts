import { describe, expect, test } from "bun:test";
import { classifyStepLine, commandLinesShownByBadges, isStepActive, type RunSteps, splitSteps } from "./step-lines";

/** The run took these steps (as its `action` events say). */
const ran = (...lines: string[]): RunSteps => ({
  actions: lines.map((description) => ({ description, status: classifyStepLine(description) === "in_progress" ? "in_progress" : "completed" })),
});

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
      "Compiles; not run in a browser",
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
    expect(
      splitSteps(
        "Sure, building it.\nCreating React app\nCreated React app (12 files)\n\nAll **done**.",
        ran("Creating React app", "Created React app (12 files)"),
      ),
    ).toEqual([
      { kind: "text", text: "Sure, building it." },
      { kind: "step", text: "Creating React app", status: "in_progress" },
      { kind: "step", text: "Created React app (12 files)", status: "completed" },
      { kind: "text", text: "\nAll **done**." },
    ]);
  });

  test("leaves lines inside fenced code alone", () => {
    const content = "Output:\n```\nCreated file.txt\nStarted: x\n```\nEdited a.ts";
    expect(splitSteps(content, ran("Created file.txt", "Started: x", "Edited a.ts"))).toEqual([
      { kind: "text", text: "Output:\n```\nCreated file.txt\nStarted: x\n```" },
      { kind: "step", text: "Edited a.ts", status: "completed" },
    ]);
  });

  test("an unclosed fence (still streaming) keeps the rest as code", () => {
    expect(splitSteps("```sh\nInstalling deps", ran("Installing deps"))).toEqual([{ kind: "text", text: "```sh\nInstalling deps" }]);
  });

  test("an in-progress step spins only while streaming and until a later step arrives", () => {
    const segments = splitSteps("Creating app\nhello", ran("Creating app"));
    expect(isStepActive(segments, 0, true)).toBe(true);
    expect(isStepActive(segments, 0, false)).toBe(false);
    const later = splitSteps("Creating app\nCreated app", ran("Creating app", "Created app"));
    expect(isStepActive(later, 0, true)).toBe(false);
  });
});

test("run_sql's destructive statements are warning steps", () => {
  expect(splitSteps("Applying.\nDestructive SQL ran: DROP TABLE todos\nDone.", ran("Destructive SQL ran: DROP TABLE todos"))).toEqual([
    { kind: "text", text: "Applying." },
    { kind: "step", text: "Destructive SQL ran: DROP TABLE todos", status: "warning" },
    { kind: "text", text: "Done." },
  ]);
});

describe("steps come only from the run's actions", () => {
  test("a sentence of the model's that reads like a step stays text", () => {
    const content = "Creating the layout now, then the list.\nCreated src/App.tsx\nStarting with the header…";
    expect(splitSteps(content, ran("Created src/App.tsx"))).toEqual([
      { kind: "text", text: "Creating the layout now, then the list." },
      { kind: "step", text: "Created src/App.tsx", status: "completed" },
      { kind: "text", text: "Starting with the header…" },
    ]);
  });

  test("a step the run left unfinished (saved with its mark) is still a step", () => {
    expect(splitSteps("Installing zod (not finished)", { actions: [] })).toEqual([
      { kind: "step", text: "Installing zod (not finished)", status: "in_progress" },
    ]);
  });

  test("a command is shown once: its step line gives way to its badge", () => {
    const hidden = commandLinesShownByBadges([
      { name: "run_shell", summary: "npm test", status: "completed" },
      { name: "run_shell", summary: "Started: npm run dev", status: "completed" },
    ]);
    const steps = { ...ran("Ran shell: npm test (failed)", "Started: npm run dev", "Installed zod"), hidden };
    expect(splitSteps("Ran shell: npm test (failed)\nStarted: npm run dev\nInstalled zod", steps)).toEqual([
      { kind: "step", text: "Installed zod", status: "completed" },
    ]);
  });
});
