/**
 * Notices a run that goes round in circles. The same failing tool call three times in a row, or the same
 * error three rounds running (different calls, one cause), stops the run with a message saying what it was
 * stuck on. Four identical successful calls in a row, or two calls alternating A-B-A-B, first get a nudge
 * (added to the newest result); only if the loop goes on for two more calls is the run stopped as stuck.
 *
 * @example
 * const stuck = new StuckDetector();
 * const verdict = stuck.round([{ name: "edit_file", arguments: "{…}", ok: false, result: "Error: not found" }]);
 * if (verdict && "stop" in verdict) return fail(verdict.stop);
 */
export const STUCK_REPEATS = 3;
/** Calls that make a loop: four the same, or A-B-A-B. */
const LOOP_CALLS = 4;
/** Calls that continue a loop after its nudge before the run is stopped. */
const AFTER_NUDGE = 2;

export type RoundCall = { name: string; arguments: string; ok: boolean; result: string };
export type StuckVerdict = { stop: string } | { nudge: string };

export class StuckDetector {
  private lastFailedCall: string | null = null;
  private sameCallFailures = 0;
  private lastError: string | null = null;
  private sameErrorRounds = 0;
  /** Every call of the run, as a comparable key, and its name. */
  private readonly calls: { key: string; name: string }[] = [];
  /** The loop nudged about (its calls' keys) and how many calls the run had then. */
  private nudged: { loop: string; at: number } | null = null;

  /** Records one round of tool calls; says when the run is stuck, or what to tell the model of a loop, or null. */
  round(calls: RoundCall[]): StuckVerdict | null {
    for (const call of calls) {
      const key = `${call.name}\u0000${normalise(call.arguments)}`;
      this.calls.push({ key, name: call.name });
      if (call.ok) {
        this.lastFailedCall = null;
        this.sameCallFailures = 0;
        continue;
      }
      this.sameCallFailures = key === this.lastFailedCall ? this.sameCallFailures + 1 : 1;
      this.lastFailedCall = key;
      if (this.sameCallFailures >= STUCK_REPEATS) {
        return {
          stop: `The agent was stuck: the same ${call.name} call failed ${STUCK_REPEATS} times in a row (${errorLine(call.result)}). Stopped so it does not keep repeating it; what was done so far is saved.`,
        };
      }
    }
    const failed = calls.find((c) => !c.ok);
    const error = failed ? errorLine(failed.result) : null;
    // Paths and numbers differ between attempts at the same thing ("No file at a1.ts", "No file at a2.ts").
    const kind = error?.replace(/\S*[/.]\S*|\d+/g, "…") ?? null;
    this.sameErrorRounds = kind !== null && kind === this.lastError ? this.sameErrorRounds + 1 : kind === null ? 0 : 1;
    this.lastError = kind;
    if (error !== null && this.sameErrorRounds >= STUCK_REPEATS) {
      return {
        stop: `The agent was stuck: the same error came back ${STUCK_REPEATS} rounds running (last: ${error}). Stopped so it does not keep repeating it; what was done so far is saved.`,
      };
    }
    return this.loop();
  }

  private loop(): StuckVerdict | null {
    const last = this.calls.slice(-LOOP_CALLS);
    if (last.length < LOOP_CALLS) return null;
    const [a, b, c, d] = last.map((x) => x.key);
    const same = a === b && b === c && c === d;
    const alternating = !same && a === c && b === d && a !== b;
    if (!same && !alternating) {
      this.nudged = null;
      return null;
    }
    const loop = [...new Set([a, b])].sort().join("\u0001");
    const names = [...new Set(last.map((x) => x.name))].join(" and ");
    if (this.nudged?.loop === loop) {
      if (this.calls.length - this.nudged.at < AFTER_NUDGE) return null;
      return {
        stop: `The agent was stuck: it kept ${same ? `repeating the same ${names} call` : `alternating between the same two calls (${names})`} after being told it was going round in circles. Stopped so it does not keep repeating it; what was done so far is saved.`,
      };
    }
    this.nudged = { loop, at: this.calls.length };
    return {
      nudge: same
        ? `Note: you have now made this same ${names} call ${LOOP_CALLS} times in a row and it gave the same answer each time; making it again will not change anything. Use the result you have and go on to the next step, or finish if the work is done.`
        : `Note: you are alternating between the same two calls (${names}) again and again without getting anywhere. Stop repeating them: use the results you have and go on to the next step, or finish if the work is done.`,
    };
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
