/**
 * How a run writes its answer: the model's text, step lines ('Installed zod') and the run's own notices,
 * as `chunk` and `action` events, each step on its own line and a blank line between steps and the words
 * after them. It remembers the completed steps for the run's closing `actions_completed`.
 *
 * @example
 * const writer = createStepWriter(emit);
 * writer.text("Sure."); writer.step("Created src/App.tsx", "completed"); writer.notice("_(Asking again.)_\n\n");
 */
import type { StreamEvent } from "@shared/events/stream";
import type { ActionStep } from "@shared/schemas/message";
import type { StepStatus } from "./tools/define-tool";

export type StepWriter = {
  /** The model's text, as it streams. */
  text(content: string): void;
  /** A step line, on its own line. */
  step(line: string, status: StepStatus): void;
  /** A note from the run itself, on a paragraph of its own (the text brings its own trailing breaks). */
  notice(content: string): void;
  /** The run's completed steps so far. */
  completedActions(): ActionStep[];
};

export function createStepWriter(emit: (event: StreamEvent) => void): StepWriter {
  const actions: ActionStep[] = [];
  let atLineStart = true;
  let afterStep = false;

  const text = (content: string) => {
    // A blank line between step lines and the model's next words keeps them apart in Markdown.
    if (afterStep) content = `\n${content}`;
    afterStep = false;
    emit({ type: "chunk", content });
    atLineStart = content.endsWith("\n");
  };

  return {
    text,
    step(line, status) {
      emit({ type: "chunk", content: `${atLineStart ? "" : "\n"}${line}\n`, step: status });
      atLineStart = true;
      afterStep = true;
      const action = { description: line, status };
      emit({ type: "action", action });
      if (status === "completed") actions.push(action);
    },
    notice: (content) => text(`${atLineStart ? "" : "\n\n"}${content}`),
    completedActions: () => actions.slice(),
  };
}
