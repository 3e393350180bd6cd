/** What the problem sources hand the store: one occurrence of a problem. */
import type { ProblemSource } from "@shared/schemas/problems";

export type ProblemInput = {
  source: ProblemSource;
  /** One readable line (or a few), what the Problems panel shows and the dedupe key is made of. */
  message: string;
  /** The stack or code frame, quoted to the AI by "Fix with AI"; not part of the dedupe key. */
  detail: string | null;
  file: string | null;
  line: number | null;
  /** When it happened (a log line's own time, so instances ingesting the same line count it once). */
  seenAt: Date;
  /**
   * For a report from a page: when that page loaded. A page that loaded before a file change runs the code
   * from before it, so its report cannot bring back a problem that change may have fixed.
   */
  pageLoadedAt?: Date | null;
  /** Seen by the agent's check in the server's headless browser (marked so in the Problems list). */
  foundByCheck?: boolean;
};

/** A line of the app's output, as the supervised-process service publishes it. */
export type OutputLine = { t: number | string; stream: string; text: string };

/** How long a problem marked stale by a file change stays listed while waiting to be reported again. */
export const DEFAULT_SETTLE_MS = 5_000;
export type ProblemsOptions = { settleMs?: number };
