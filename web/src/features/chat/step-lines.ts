/**
 * Step lines in the assistant's text: lines beginning 'Creating', 'Installing', 'Starting' or 'Checking the
 * app' are in-progress steps; 'Created', 'Edited', 'Installed', 'Configured', 'Ran shell:', 'Started:' and the
 * app check's results ('App runs without errors', 'Found 2 problems, fixing (1/3)') completed ones; 'Destructive SQL ran:'
 * a warning. splitSteps cuts a message into Markdown runs and step lines, leaving fenced code alone.
 *
 * @example
 * splitSteps("Sure!\nCreated src/App.tsx\nDone.");
 * // [{ kind: "text", text: "Sure!" }, { kind: "step", text: "Created src/App.tsx", status: "completed" },
 * //  { kind: "text", text: "Done." }]
 */
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

export function splitSteps(content: string): ContentSegment[] {
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
    const status = classifyStepLine(line);
    if (status) {
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
