import { expect, test } from "bun:test";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createStore, useStore } from "./create-store";

test("get returns the value set; set takes a value or an update of the current one", () => {
  const store = createStore(1);
  expect(store.get()).toBe(1);
  store.set(2);
  expect(store.get()).toBe(2);
  store.set((n) => n * 10);
  expect(store.get()).toBe(20);
});

test("subscribers are told of each change until they unsubscribe; setting the same value tells no one", () => {
  const store = createStore({ n: 0 });
  const seen: number[] = [];
  const stop = store.subscribe(() => seen.push(store.get().n));
  store.set({ n: 1 });
  store.set((s) => s);
  store.set({ n: 2 });
  stop();
  store.set({ n: 3 });
  expect(seen).toEqual([1, 2]);
  expect(store.get().n).toBe(3);
});

test("a listener that unsubscribes while told does not keep the others from hearing", () => {
  const store = createStore(0);
  let first = 0;
  let second = 0;
  const stopFirst = store.subscribe(() => {
    first++;
    stopFirst();
  });
  store.subscribe(() => second++);
  store.set(1);
  store.set(2);
  expect([first, second]).toEqual([1, 2]);
});

test("useStore renders the value, a slice of it, or the value given for a render without a browser", () => {
  const store = createStore<Record<string, number>>({ a: 1 });
  const Whole = () => createElement("p", null, JSON.stringify(useStore(store)));
  const Slice = () =>
    createElement(
      "p",
      null,
      useStore(store, (v) => v.b ?? 0),
    );
  const Server = () =>
    createElement(
      "p",
      null,
      useStore(store, (v) => v.a, 99),
    );
  expect(renderToString(createElement(Whole))).toBe("<p>{&quot;a&quot;:1}</p>");
  store.set((v) => ({ ...v, b: 7 }));
  expect(renderToString(createElement(Slice))).toBe("<p>7</p>");
  expect(renderToString(createElement(Server))).toBe("<p>99</p>");
});
