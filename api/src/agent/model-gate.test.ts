import { expect, test } from "bun:test";
import { createModelGate } from "./model-gate";

test("no limit: no gate", () => {
  expect(createModelGate(0)).toBeUndefined();
});

test("past the limit requests wait in order, each told its place as it moves, then 0 when it goes ahead", async () => {
  const gate = createModelGate(1)!;
  const places: Record<string, number[]> = { a: [], b: [], c: [], other: [] };
  const signal = new AbortController().signal;
  const releaseA = await gate.acquire("m", signal, (p) => places.a!.push(p));
  let bIn = false;
  let cIn = false;
  const b = gate.acquire("m", signal, (p) => places.b!.push(p)).then((release) => ((bIn = true), release));
  const c = gate.acquire("m", signal, (p) => places.c!.push(p)).then((release) => ((cIn = true), release));
  // Another model has a line of its own.
  const releaseOther = await gate.acquire("other", signal, (p) => places.other!.push(p));
  await Bun.sleep(10);
  expect([bIn, cIn, gate.waiting("m")]).toEqual([false, false, 2]);
  expect(places).toEqual({ a: [], b: [1], c: [2], other: [] });

  releaseA();
  const releaseB = await b;
  expect([bIn, cIn]).toEqual([true, false]);
  expect(places.b).toEqual([1, 0]);
  expect(places.c).toEqual([2, 1]);
  releaseB();
  releaseB(); // a second release gives nothing away
  (await c)();
  expect(places.c).toEqual([2, 1, 0]);
  expect(gate.waiting("m")).toBe(0);
  releaseOther();
});

test("a run stopped while it waits leaves the line; the ones behind move up", async () => {
  const gate = createModelGate(1)!;
  const first = await gate.acquire("m", new AbortController().signal, () => {});
  const stopped = new AbortController();
  const places: number[] = [];
  const waiting = gate.acquire("m", stopped.signal, () => {});
  const behind = gate.acquire("m", new AbortController().signal, (p) => places.push(p));
  await Bun.sleep(5);
  stopped.abort(new Error("stopped by the user"));
  await expect(waiting).rejects.toThrow("stopped by the user");
  expect(places).toEqual([2, 1]);
  first();
  (await behind)();
  expect(places).toEqual([2, 1, 0]);
});
