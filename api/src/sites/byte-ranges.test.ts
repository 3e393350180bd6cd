import { describe, expect, test } from "bun:test";
import { MAX_RANGES, multipartByteRanges, parseRanges, type RangeRequest } from "./byte-ranges";

const ranges = (...r: [number, number][]): RangeRequest => ({ kind: "ranges", ranges: r.map(([start, end]) => ({ start, end })) });

describe("Range headers", () => {
  test("single ranges: closed, open-ended, suffix; clamped to the file", () => {
    expect(parseRanges("bytes=0-4", 10)).toEqual(ranges([0, 4]));
    expect(parseRanges("bytes=5-", 10)).toEqual(ranges([5, 9]));
    expect(parseRanges("bytes=-5", 10)).toEqual(ranges([5, 9]));
    expect(parseRanges("bytes=-50", 10)).toEqual(ranges([0, 9]));
    expect(parseRanges("bytes=8-100", 10)).toEqual(ranges([8, 9]));
    expect(parseRanges("Bytes = 1-2", 10)).toEqual(ranges([1, 2]));
  });

  test("several ranges keep their order; overlapping or touching ones are merged", () => {
    expect(parseRanges("bytes=0-1,4-5", 10)).toEqual(ranges([0, 1], [4, 5]));
    expect(parseRanges("bytes=6-7, 0-1", 10)).toEqual(ranges([6, 7], [0, 1]));
    expect(parseRanges("bytes=0-3,2-5", 10)).toEqual(ranges([0, 5]));
    expect(parseRanges("bytes=0-1,2-3", 10)).toEqual(ranges([0, 3]));
    expect(parseRanges("bytes=8-9,0-1,1-2", 10)).toEqual(ranges([8, 9], [0, 2]));
    // The same bytes asked for many times are sent once.
    expect(parseRanges(`bytes=${Array(MAX_RANGES).fill("0-").join(",")}`, 10)).toEqual(ranges([0, 9]));
    expect(parseRanges("bytes=0-1,,4-5,", 10)).toEqual(ranges([0, 1], [4, 5]));
  });

  test("nothing inside the file is unsatisfiable; ranges past the end are dropped when others remain", () => {
    expect(parseRanges("bytes=10-", 10)).toEqual({ kind: "unsatisfiable" });
    expect(parseRanges("bytes=15-20", 10)).toEqual({ kind: "unsatisfiable" });
    expect(parseRanges("bytes=-0", 10)).toEqual({ kind: "unsatisfiable" });
    expect(parseRanges("bytes=0-0", 0)).toEqual({ kind: "unsatisfiable" });
    expect(parseRanges("bytes=-5", 0)).toEqual({ kind: "unsatisfiable" });
    expect(parseRanges("bytes=12-13,20-", 10)).toEqual({ kind: "unsatisfiable" });
    expect(parseRanges("bytes=12-13,2-3", 10)).toEqual(ranges([2, 3]));
  });

  test("malformed headers, other units and too many ranges are ignored (the whole file)", () => {
    for (const bad of ["bytes=5-3", "bytes=-", "bytes=", "bytes=a-b", "bytes=1-2;x", "bytes 0-1", "items=0-1", "bytes=0-1,5-3", "bytes=--1", "bytes=1.5-2"]) {
      expect({ bad, r: parseRanges(bad, 10) }).toEqual({ bad, r: { kind: "ignore" } });
    }
    const many = Array.from({ length: MAX_RANGES + 1 }, (_, i) => `${i * 2}-${i * 2}`).join(",");
    expect(parseRanges(`bytes=${many}`, 1000)).toEqual({ kind: "ignore" });
  });
});

describe("multipart/byteranges", () => {
  test("each part has its type and Content-Range, between boundaries, with a closing one", () => {
    const bytes = new TextEncoder().encode("abcdefghij");
    const body = multipartByteRanges(
      bytes,
      [
        { start: 0, end: 1 },
        { start: 4, end: 5 },
      ],
      "text/plain",
      "XyZ",
    );
    expect(new TextDecoder().decode(body)).toBe(
      "--XyZ\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-1/10\r\n\r\nab" +
        "\r\n--XyZ\r\nContent-Type: text/plain\r\nContent-Range: bytes 4-5/10\r\n\r\nef" +
        "\r\n--XyZ--\r\n",
    );
  });
});
