import { expect, test } from "bun:test";
import { ApiError } from "../../api/api-error";
import { chatToasts, refusedToast, turnEndToast } from "./chat-toasts";

test("a dropped stream is always told, as finished in the background when the tab was hidden", () => {
  expect(turnEndToast("dropped", { hidden: false })).toEqual(chatToasts.interrupted());
  expect(turnEndToast("dropped", { hidden: true })).toEqual(chatToasts.interruptedWhileHidden());
  expect(chatToasts.interrupted().title).toBe("Connection interrupted");
});

test("a finished answer is told only when the tab was hidden during it and it did not fail", () => {
  expect(turnEndToast("done", { hidden: false })).toBeNull();
  expect(turnEndToast("done", { hidden: true, failed: true })).toBeNull();
  expect(turnEndToast("done", { hidden: true })).toEqual({ title: "AI Processing Complete", description: "Your request was processed in the background." });
});

test("a refused send says why; a spent budget is told longer, under its own title", () => {
  const refusal = (status: number, code: string, error: string) => new ApiError(status, code, error, JSON.stringify({ error, code }), "");
  const busy = refusal(409, "conflict", "A run is already going for this project.");
  expect(refusedToast(busy)).toEqual({ title: "Failed to send message", description: busy.error, variant: "destructive" });
  const spent = refusal(429, "budget_exhausted", "This month's tokens are spent.");
  expect(refusedToast(spent)).toMatchObject({ title: "Monthly token budget used", description: spent.error, durationMs: 10_000 });
});
