/**
 * One small external store: a value, `set` to replace it, `subscribe` to hear of changes. Module-level
 * state shared across components (toasts, the chat outbox, preview reloads, the theme) is kept in one of
 * these and read in React through `useStore`, which is `useSyncExternalStore` underneath.
 *
 * @example
 * const counter = createStore(0);
 * counter.set((n) => n + 1);
 * const n = useStore(counter);                    // in a component: re-renders on change
 * const two = useStore(counts, (c) => c.get(id)); // a slice: re-renders only when the slice changes
 */
import { useSyncExternalStore } from "react";

export type Store<T> = {
  get(): T;
  /** Replaces the value (or derives it from the current one) and tells the listeners; the same value tells no one. */
  set(next: T | ((current: T) => T)): void;
  /** Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
};

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const updated = typeof next === "function" ? (next as (current: T) => T)(value) : next;
      if (Object.is(updated, value)) return;
      value = updated;
      // A copy: a listener that unsubscribes (or subscribes another) while told does not upset the loop.
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * The store's value, or the slice `select` picks from it, re-rendering when that changes. `select` must
 * return a value already in the state (or a primitive), not a new object each call, or React renders forever.
 * `serverValue` is what a render without a browser sees (the theme's default, say).
 */
export function useStore<T>(store: Store<T>): T;
export function useStore<T, S>(store: Store<T>, select: (value: T) => S, serverValue?: S): S;
export function useStore<T, S>(store: Store<T>, select?: (value: T) => S, serverValue?: S): T | S {
  const read = () => (select ? select(store.get()) : store.get());
  return useSyncExternalStore(store.subscribe, read, serverValue === undefined ? read : () => serverValue);
}
