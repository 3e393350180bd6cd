import { describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { silentLogger } from "../lib/logger";
import { createRunChannel } from "./run-channel";

const chunk = (content: string): StreamEvent => ({ type: "chunk", content });

describe("run channel", () => {
  test("a late subscriber gets the events so far, then the live ones, until it unsubscribes", () => {
    const channel = createRunChannel(silentLogger);
    channel.publish(chunk("a"));
    const seen: StreamEvent[] = [];
    const unsubscribe = channel.subscribe((e) => seen.push(e));
    channel.publish(chunk("b"));
    unsubscribe();
    channel.publish(chunk("c"));
    expect(seen).toEqual([chunk("a"), chunk("b")]);
  });

  test("after done a subscriber gets the replay only; close drops the live listeners", () => {
    const channel = createRunChannel(silentLogger);
    const live: StreamEvent[] = [];
    channel.subscribe((e) => live.push(e));
    channel.publish(chunk("a"));
    channel.publish({ type: "done", status: "complete" });
    channel.close();
    channel.publish(chunk("late"));
    expect(live).toEqual([chunk("a"), { type: "done", status: "complete" }]);
    const replay: StreamEvent[] = [];
    channel.subscribe((e) => replay.push(e));
    expect(replay.map((e) => e.type)).toEqual(["chunk", "done", "chunk"]);
  });

  test("a listener that throws is logged; the others still get the event", () => {
    const warned: string[] = [];
    const channel = createRunChannel({ ...silentLogger, warn: (message: string) => void warned.push(message) });
    const seen: StreamEvent[] = [];
    channel.subscribe(() => {
      throw new Error("socket closed");
    });
    channel.subscribe((e) => seen.push(e));
    channel.publish(chunk("a"));
    expect(seen).toEqual([chunk("a")]);
    expect(warned).toEqual(["stream listener failed"]);
  });
});
