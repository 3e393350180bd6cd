/**
 * Notices a run that goes round in circles: the same failing tool call three times in a row, or the same
 * error three rounds running (different calls, one cause). The loop then stops with a message saying
 * what it was stuck on, instead of spending the step and token budget on it.
 *
 * @example
 * const stuck = new StuckDetector();
 * const reason = stuck.round([{ name: "edit_file", arguments: "{…}", ok: false, result: "Error: not found" }]);
 * if (reason) return fail(reason);
 */
export const STUCK_REPEATS = 3;

export type RoundCall = { name: string; arguments: string; ok: boolean; result: string };

export class StuckDetector {
  private lastFailedCall: string | null = null;
  private sameCallFailures = 0;
  private lastError: string | null = null;
  private sameErrorRounds = 0;

  /** Records one round of tool calls; returns why the run is stuck, or null. */
  round(calls: RoundCall[]): string | null {
    for (const call of calls) {
      const key = `${call.name}\u0000${normalise(call.arguments)}`;
      if (call.ok) {
        this.lastFailedCall = null;
        this.sameCallFailures = 0;
        continue;
      }
      this.sameCallFailures = key === this.lastFailedCall ? this.sameCallFailures + 1 : 1;
      this.lastFailedCall = key;
      if (this.sameCallFailures >= STUCK_REPEATS) {
        return `The agent was stuck: the same ${call.name} call failed ${STUCK_REPEATS} times in a row (${errorLine(call.result)}). Stopped so it does not keep repeating it; what was done so far is saved.`;
      }
    }
    const failed = calls.find((c) => !c.ok);
    const error = failed ? errorLine(failed.result) : null;
    // Paths and numbers differ between attempts at the same thing ("No file at a1.ts", "No file at a2.ts").
    const kind = error?.replace(/\S*[/.]\S*|\d+/g, "…") ?? null;
    this.sameErrorRounds = kind !== null && kind === this.lastError ? this.sameErrorRounds + 1 : kind === null ? 0 : 1;
    this.lastError = kind;
    if (error !== null && this.sameErrorRounds >= STUCK_REPEATS) {
      return `The agent was stuck: the same error came back ${STUCK_REPEATS} rounds running (last: ${error}). Stopped so it does not keep repeating it; what was done so far is saved.`;
    }
    return null;
  }
}

/** The arguments as a comparable string: key order and spacing do not make a call different. */
function normalise(args: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(args)));
  } catch {
    return args.trim();
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** The first line of an error result, short enough for a message. */
function errorLine(result: string): string {
  const line = result
    .replace(/^Error:\s*/, "")
    .split("\n")[0]!
    .trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
