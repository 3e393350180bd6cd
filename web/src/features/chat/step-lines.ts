/**
 * Step lines in the assistant's text. Only a line the run itself wrote as a step is one: its text is among
 * the message's actions (the run's `action` events; saved, its completed ones), or it is an in-progress step
 * the run left unfinished (saved with " (not finished)"). A sentence of the model's that merely reads like a
 * step ("Creating the layout now…") stays text. How a step looks follows its words: lines beginning 'Creating', 'Installing', 'Starting' or 'Checking the
 * app' are in-progress steps; 'Created', 'Edited', 'Installed', 'Configured', 'Ran shell:', 'Started:' and the
 * app check's results ('App runs without errors', 'Compiles; not run in a browser', 'Found 2 problems, fixing (1/3)') completed ones; 'Destructive SQL ran:'
 * a warning. splitSteps cuts a message into Markdown runs and step lines, leaving fenced code alone.
 *
 * @example
 * splitSteps("Sure!\nCreated src/App.tsx\nDone.");
 * // [{ kind: "text", text: "Sure!" }, { kind: "step", text: "Created src/App.tsx", status: "completed" },
 * //  { kind: "text", text: "Done." }]
 */
import { UNFINISHED_STEP } from "@shared/events/fold-stream-event";
import type { ActionStep, ToolCall } from "@shared/schemas/message";

export type StepStatus = "in_progress" | "completed" | "warning";

/** Done, but the person should notice: run_sql's destructive statements ('Destructive SQL ran: DROP TABLE todos'). */
export const WARNING_STEP_PREFIXES = ["Destructive SQL ran:"] as const;

export const IN_PROGRESS_STEP_PREFIXES = ["Creating", "Installing", "Starting", "Checking the app", "Restarting the app"] as const;
export const COMPLETED_STEP_PREFIXES = [
  "Created",
  "Edited",
  "Installed",
  "Configured",
  "Ran shell:",
  "Started:",
  "Restarted the app",
  "App runs without errors",
  "Compiles; not run in a browser",
] as const;
/** The app check's results ('Found 2 problems, fixing (1/3)', 'Found 1 problem (1 fixed, 1 left), fixing (2/3)', 'App still has 1 problem after 3 repair rounds') and the run's nudges, matched whole so prose is not taken for them. */
const COMPLETED_STEP_PATTERNS = [
  /^Found \d+ problems?(?: \(\d+ fixed, \d+ left(?:, \d+ new)?\))?, fixing \(\d+\/\d+\)$/,
  /^App still has \d+ problems? after \d+ repair rounds?$/,
  // The run's own nudges: a model that did nothing, went round in circles, or spent its output thinking.
  /^The model (?:described the work without doing it|wrote code into its answer|sent an empty answer|was repeating the same calls|used its whole output limit)\b.*$/,
];

export function classifyStepLine(line: string): StepStatus | null {
  const text = line.trimStart();
  if (WARNING_STEP_PREFIXES.some((p) => text.startsWith(p))) return "warning";
  if (COMPLETED_STEP_PREFIXES.some((p) => text.startsWith(p))) return "completed";
  if (COMPLETED_STEP_PATTERNS.some((p) => p.test(text.trimEnd()))) return "completed";
  if (IN_PROGRESS_STEP_PREFIXES.some((p) => text.startsWith(p))) return "in_progress";
  return null;
}

export type ContentSegment = { kind: "text"; text: string } | { kind: "step"; text: string; status: StepStatus };

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** What the run did: its step lines (`actions`), and lines to leave out (`hidden`: shown elsewhere, by a badge). */
export type RunSteps = { actions: readonly ActionStep[]; hidden?: ReadonlySet<string> };

function stepStatus(line: string, steps: RunSteps): StepStatus | null {
  const text = line.trim();
  const action = steps.actions.find((a) => a.description.trim() === text);
  if (action) return classifyStepLine(text) ?? action.status;
  if (text.endsWith(UNFINISHED_STEP.trim()) && classifyStepLine(text) === "in_progress") return "in_progress";
  return null;
}

/**
 * The step lines that say again what a command badge shows ('Ran shell: npm test' beside the badge
 * 'npm test', 'Started: npm run dev'): the command is shown once, by its badge, which opens to its output.
 */
export function commandLinesShownByBadges(toolCalls: readonly ToolCall[]): Set<string> {
  const lines = new Set<string>();
  for (const call of toolCalls) {
    if (call.name !== "run_shell") continue;
    const command = call.summary.startsWith("Started: ") ? call.summary.slice("Started: ".length) : call.summary;
    lines.add(`Ran shell: ${command}`).add(`Ran shell: ${command} (failed)`).add(`Started: ${command}`);
  }
  return lines;
}

export function splitSteps(content: string, steps: RunSteps): ContentSegment[] {
  const segments: ContentSegment[] = [];
  let text: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    const joined = text.join("\n");
    if (joined.trim()) segments.push({ kind: "text", text: joined });
    text = [];
  };

  for (const line of content.split(/\r?\n/)) {
    const marker = FENCE.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      text.push(line);
      continue;
    }
    if (marker) {
      fence = marker;
      text.push(line);
      continue;
    }
    const status = stepStatus(line, steps);
    if (status && steps.hidden?.has(line.trim())) flush();
    else if (status) {
      flush();
      segments.push({ kind: "step", text: line.trim(), status });
    } else text.push(line);
  }
  flush();
  return segments;
}

/**
 * Whether an in-progress step still spins: only while the answer streams and nothing came after it (its
 * 'Created …' twin or any later step ends the wait). Otherwise it is shown settled.
 */
export function isStepActive(segments: ContentSegment[], index: number, streaming: boolean): boolean {
  const segment = segments[index];
  if (!streaming || segment?.kind !== "step" || segment.status !== "in_progress") return false;
  return !segments.slice(index + 1).some((s) => s.kind === "step");
}
