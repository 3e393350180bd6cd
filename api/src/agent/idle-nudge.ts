/**
 * A model that does nothing while it is asked to build: it says what it will do and stops, writes the code
 * into its answer (the user does not copy code out of the chat), or sends an empty answer. Such a reply gets
 * one nudge back to the tools per run. A plain question answered in text is what it should be, and is never
 * nudged; a build request phrased as a question ("Can you add…?") is a build request.
 *
 * @example
 * idleReply("I'll create the component now.", true); // "announce"
 * isPlainQuestion("What does useEffect do?"); // true
 */
export type IdleReply = "announce" | "code" | "empty";

const VERBS =
  "build|create|make|add|fix|change|update|implement|write|remove|delete|rename|refactor|set ?up|install|replace|move|restyle|style|redesign|convert|generate|connect|integrate|improve|turn|put|show|display|use|switch|translate|finish|continue|try|do";
const IMPERATIVE = new RegExp(
  `^(?:(?:ok(?:ay)?|now|then|and|also|hi|hey|hello)[,!.]?\\s+)*(?:please\\s+)?(?:(?:can|could|would|will)\\s+you\\s+(?:please\\s+)?)?(?:${VERBS})\\b|\\b(?:i want|i'd like|i would like|i need|let's|lets|please)\\b[^.?!]*\\b(?:${VERBS})\\b`,
  "i",
);
const QUESTION = /^(?:what|why|how|which|who|whom|whose|when|where|is|are|was|were|does|do|did|can|could|should|would|will|explain|tell me|describe)\b/i;

/** A question to be answered in words, not a request to change the app. */
export function isPlainQuestion(request: string): boolean {
  const text = request.trim();
  if (IMPERATIVE.test(text)) return false;
  return text.endsWith("?") || QUESTION.test(text);
}

/** Saying what it is about to do, at the end of its answer ("Let me know…" and offers of help are not that). */
const ANNOUNCE = /\b(?:i'll|i will|i'm going to|i am going to|let me|let's|i shall|now i|next,? i)\b/i;
const NOT_ANNOUNCE = /\b(?:let me know|i'll be (?:happy|glad)|i will be (?:happy|glad))\b/i;
const CODE_BLOCK = /```[^\n]*\n((?:.*\n){8,}?)```/;

/** How a reply without tool calls does nothing, or null when it is an answer. */
export function idleReply(text: string, buildRequest: boolean): IdleReply | null {
  if (!text.trim()) return "empty";
  if (!buildRequest) return null;
  if (CODE_BLOCK.test(text)) return "code";
  const last = text
    .trim()
    .split(/\n\s*\n/)
    .at(-1)!;
  return ANNOUNCE.test(last) && !NOT_ANNOUNCE.test(last) ? "announce" : null;
}

export const IDLE_NUDGE: Record<IdleReply, { toModel: string; step: string }> = {
  announce: {
    toModel:
      "You said what you will do, but you called no tool, so nothing was done. Do it now by calling the tools (write_file, edit_file, …); do not only describe it.",
    step: "The model described the work without doing it; asked it to use its tools",
  },
  code: {
    toModel:
      "You wrote code in your answer, but the project's files are unchanged: the user does not copy code from the chat. Write it into the project with write_file or edit_file.",
    step: "The model wrote code into its answer; asked it to write the files",
  },
  empty: {
    toModel: "Your reply was empty. Carry on with the task by calling the tools you need, or say in words what was done if it is finished.",
    step: "The model sent an empty answer; asked it to carry on",
  },
};

export const EMPTY_AGAIN = "The model sent an empty answer twice, so the run was stopped. Send a message to try again, or try another model (OPENAI_MODEL).";
