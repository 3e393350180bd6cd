/**
 * Problems the project's running app showed (GET /api/sandbox/{projectId}/problems): errors its preview page
 * reported (`browser`), and error lines of its dev server (`server`) or compiler (`build`). Deduplicated and
 * counted; at most MAX_PROBLEMS per project. `problems.changed` on the WebSocket says the list changed.
 */

/** What the API answers, inferred from the response schemas (./responses/). */
export type { Problem, ProblemSource } from "./responses";

/** The most problems one project keeps; the least recently seen go first. */
export const MAX_PROBLEMS = 100;

/** Pushed on the WebSocket to the project's owner when the project's problem list changed. */
export type ProblemsChangedEvent = { type: "problems.changed"; projectId: string };
