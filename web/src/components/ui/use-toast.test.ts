import { expect, test } from "bun:test";
import { dismissToast, getToasts, pauseToast, resumeToast, TOAST_LIMIT, toast } from "./use-toast";

test("at most one toast: a new one replaces the old", () => {
  toast({ title: "First" });
  const second = toast({ title: "Second", description: "shown" });
  expect(TOAST_LIMIT).toBe(1);
  expect(getToasts().map((t) => t.title)).toEqual(["Second"]);
  expect(getToasts()[0]?.open).toBe(true);
  second.dismiss();
});

test("dismissing closes the toast at once; it is removed from the list later", () => {
  const { id } = toast({ title: "Closing" });
  dismissToast(id);
  expect(getToasts().find((t) => t.id === id)?.open).toBe(false);
});

test("a paused toast outlives its duration; resumed, it closes after the time that was left", async () => {
  const { id } = toast({ title: "Paused", durationMs: 60 });
  await Bun.sleep(20);
  pauseToast(id);
  await Bun.sleep(100);
  expect(getToasts().find((t) => t.id === id)?.open).toBe(true);
  resumeToast(id);
  await Bun.sleep(20);
  expect(getToasts().find((t) => t.id === id)?.open).toBe(true);
  await Bun.sleep(60);
  expect(getToasts().find((t) => t.id === id)?.open).toBe(false);
});
