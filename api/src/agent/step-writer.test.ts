import { describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { createStepWriter } from "./step-writer";

function writer() {
  const events: StreamEvent[] = [];
  return { events, w: createStepWriter((e) => events.push(e)), chunks: () => events.flatMap((e) => (e.type === "chunk" ? [e.content] : [])) };
}

describe("step writer", () => {
  test("a step after text starts its own line; text after a step gets a blank line", () => {
    const { w, chunks, events } = writer();
    w.text("Sure, ");
    w.text("building it.");
    w.step("Created src/App.tsx", "completed");
    w.step("Installing zod", "in_progress");
    w.text("Done.");
    expect(chunks()).toEqual(["Sure, ", "building it.", "\nCreated src/App.tsx\n", "Installing zod\n", "\nDone."]);
    expect(events.filter((e) => e.type === "chunk" && e.step).map((e) => (e as { step: string }).step)).toEqual(["completed", "in_progress"]);
  });

  test("each step is also an action; only completed ones are remembered", () => {
    const { w, events } = writer();
    w.step("Installing zod", "in_progress");
    w.step("Installed zod", "completed");
    expect(events.filter((e) => e.type === "action")).toEqual([
      { type: "action", action: { description: "Installing zod", status: "in_progress" } },
      { type: "action", action: { description: "Installed zod", status: "completed" } },
    ]);
    const actions = w.completedActions();
    expect(actions).toEqual([{ description: "Installed zod", status: "completed" }]);
    actions.pop();
    expect(w.completedActions()).toHaveLength(1);
  });

  test("a notice starts a new paragraph unless the text already ended a line", () => {
    const { w, chunks } = writer();
    w.notice("_(first)_\n\n");
    w.text("Half a sentence");
    w.notice("_(The connection dropped.)_\n\n");
    expect(chunks()).toEqual(["_(first)_\n\n", "Half a sentence", "\n\n_(The connection dropped.)_\n\n"]);
  });

  test("a notice right after a step keeps the blank line before the words", () => {
    const { w, chunks } = writer();
    w.step("Created a.ts", "completed");
    w.notice("_(note)_");
    expect(chunks()).toEqual(["Created a.ts\n", "\n_(note)_"]);
  });
});
