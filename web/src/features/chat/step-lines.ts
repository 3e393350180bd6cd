/**
 * Step lines in the assistant's text (spec §4): lines beginning 'Creating', 'Installing' or 'Starting' are
 * in-progress steps; 'Created', 'Edited', 'Installed', 'Configured', 'Ran shell:' and 'Started:' completed
 * ones. splitSteps cuts a message into Markdown runs and step lines, leaving fenced code alone.
 *
 * @example
 * splitSteps("Sure!\nCreated src/App.tsx\nDone.");
 * // [{ kind: "text", text: "Sure!" }, { kind: "step", text: "Created src/App.tsx", status: "completed" },
 * //  { kind: "text", text: "Done." }]
 */
export type StepStatus = "in_progress" | "completed";

export const IN_PROGRESS_STEP_PREFIXES = ["Creating", "Installing", "Starting"] as const;
export const COMPLETED_STEP_PREFIXES = ["Created", "Edited", "Installed", "Configured", "Ran shell:", "Started:"] as const;

export function classifyStepLine(line: string): StepStatus | null {
  const text = line.trimStart();
  if (COMPLETED_STEP_PREFIXES.some((p) => text.startsWith(p))) return "completed";
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
