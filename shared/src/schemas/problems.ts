/**
 * Problems the project's running app showed (GET /api/sandbox/{projectId}/problems): errors its preview page
 * reported (`browser`), and error lines of its dev server (`server`) or compiler (`build`). Deduplicated and
 * counted; at most MAX_PROBLEMS per project. `problems.changed` on the WebSocket says the list changed.
 */
export const PROBLEM_SOURCES = ["browser", "server", "build"] as const;
export type ProblemSource = (typeof PROBLEM_SOURCES)[number];

/** The most problems one project keeps; the least recently seen go first. */
export const MAX_PROBLEMS = 100;

export type Problem = {
  id: string;
  source: ProblemSource;
  message: string;
  /** Project-relative path, when the problem points at a file. */
  file: string | null;
  line: number | null;
  /** ISO 8601. */
  firstSeen: string;
  /** How many times it was seen since it first appeared. */
  count: number;
  /** The stack or code frame, when there is one (quoted to the AI by "Fix with AI"). */
  detail: string | null;
};

/** Pushed on the WebSocket to the project's owner when the project's problem list changed. */
export type ProblemsChangedEvent = { type: "problems.changed"; projectId: string };
