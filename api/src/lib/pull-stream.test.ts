import { describe, expect, test } from "bun:test";
import { pullStream } from "./pull-stream";

describe("pullStream", () => {
  test("the generator runs only as far as the reader has read (plus the read-ahead)", async () => {
    let produced = 0;
    async function* chunks() {
      for (let i = 0; i < 100; i++) {
        produced++;
        yield new Uint8Array([i]);
      }
    }
    const reader = pullStream(chunks(), { readAhead: 2 }).getReader();
    await Bun.sleep(20);
    expect(produced).toBeLessThanOrEqual(2);
    for (let i = 0; i < 10; i++) expect((await reader.read()).value).toEqual(new Uint8Array([i]));
    await Bun.sleep(20);
    expect(produced).toBeLessThanOrEqual(13);
  });

  test("cancelling ends the generator (its finally runs); empty chunks are skipped", async () => {
    let closed = false;
    async function* chunks() {
      try {
        yield new Uint8Array();
        yield new Uint8Array([1]);
        for (;;) yield new Uint8Array([2]);
      } finally {
        closed = true;
      }
    }
    const reader = pullStream(chunks()).getReader();
    expect((await reader.read()).value).toEqual(new Uint8Array([1]));
    await reader.cancel();
    expect(closed).toBe(true);
  });
});
