import { describe, expect, test } from "bun:test";
import { createSseParser, readSse } from "./sse";

function parseAll(chunks: string[], end = true): string[] {
  const out: string[] = [];
  const parser = createSseParser((d) => out.push(d));
  for (const c of chunks) parser.push(c);
  if (end) parser.end();
  return out;
}

const STREAM = 'data: {"type":"chunk","content":"Hel"}\n\n' + 'data: {"type":"chunk","content":"lo\\n"}\n\n' + ": keep-alive\n\n" + 'data: {"type":"done"}\n\n';
const EVENTS = ['{"type":"chunk","content":"Hel"}', '{"type":"chunk","content":"lo\\n"}', '{"type":"done"}'];

describe("createSseParser", () => {
  test("parses whole events", () => {
    expect(parseAll([STREAM])).toEqual(EVENTS);
  });

  test("gives the same events whatever the chunk boundaries", () => {
    for (let size = 1; size <= STREAM.length; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < STREAM.length; i += size) chunks.push(STREAM.slice(i, i + size));
      expect(parseAll(chunks)).toEqual(EVENTS);
    }
  });

  test("splits at every possible point, including inside 'data:' and the blank line", () => {
    for (let cut = 0; cut <= STREAM.length; cut++) {
      expect(parseAll([STREAM.slice(0, cut), STREAM.slice(cut)])).toEqual(EVENTS);
    }
  });

  test("accepts CRLF and CR line ends, even a CRLF cut between chunks", () => {
    expect(parseAll(["data: a\r", "\n\r", "\ndata: b\r\rdata: c\n\n"])).toEqual(["a", "b", "c"]);
  });

  test("joins several data lines of one event and ignores other fields", () => {
    expect(parseAll(["event: message\nid: 7\ndata: one\ndata: two\nretry: 10\n\n"])).toEqual(["one\ntwo"]);
  });

  test("'data:' without a space after the colon keeps the whole value", () => {
    expect(parseAll(['data:{"x":1}\n\n'])).toEqual(['{"x":1}']);
  });

  test("holds an unfinished event until the stream ends", () => {
    expect(parseAll(['data: {"type":"done"}'], false)).toEqual([]);
    expect(parseAll(['data: {"type":"done"}'], true)).toEqual(['{"type":"done"}']);
  });
});

describe("readSse", () => {
  test("decodes UTF-8 split across byte chunks", async () => {
    const bytes = new TextEncoder().encode('data: {"content":"héllo ✓"}\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const b of bytes) controller.enqueue(new Uint8Array([b]));
        controller.close();
      },
    });
    const out: string[] = [];
    await readSse(body, (d) => out.push(d));
    expect(out).toEqual(['{"content":"héllo ✓"}']);
  });

  test("rejects when the body errors mid-way, after delivering what came before", async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(new TextEncoder().encode("data: first\n\n"));
        else controller.error(new TypeError("network error"));
      },
    });
    const out: string[] = [];
    await expect(readSse(body, (d) => out.push(d))).rejects.toThrow("network error");
    expect(out).toEqual(["first"]);
  });
});
