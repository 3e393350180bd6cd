/**
 * Range requests (RFC 9110): which bytes of a file a `Range: bytes=…` header asks for, and the
 * `multipart/byteranges` body that answers several ranges at once, as nginx, Apache and Go's file server
 * (Caddy's) do. Ranges always count bytes of the file as stored (the identity encoding), never of a
 * compressed form. Overlapping or adjacent ranges are merged first (as Apache does), so a header naming the
 * same bytes many times cannot multiply the answer; a header with more than MAX_RANGES ranges is ignored
 * (the whole file, 200), as Apache does past its MaxRanges.
 *
 * @example
 * const r = parseRanges("bytes=0-1,4-5", 10); // { kind: "ranges", ranges: [{ start: 0, end: 1 }, { start: 4, end: 5 }] }
 * const body = multipartByteRanges(bytes, r.ranges, "text/plain", "b0undary");
 */

/** Inclusive, as Content-Range writes it. */
export type ByteRange = { start: number; end: number };

export type RangeRequest =
  /** No usable Range header (malformed, another unit, too many ranges): answer the whole file. */
  | { kind: "ignore" }
  /** Well-formed, but no range overlaps the file: 416, with a Content-Range that names the size. */
  | { kind: "unsatisfiable" }
  /** One or more ranges to send, in the order asked (merged ones where the first of them was). */
  | { kind: "ranges"; ranges: ByteRange[] };

export const MAX_RANGES = 32;

export function parseRanges(header: string, size: number): RangeRequest {
  const m = /^\s*bytes\s*=(.*)$/i.exec(header);
  if (!m) return { kind: "ignore" };
  // A list may hold empty elements (`bytes=0-1,,4-5`), which recipients skip.
  const specs = m[1]!
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (specs.length === 0 || specs.length > MAX_RANGES) return { kind: "ignore" };
  const wanted: ByteRange[] = [];
  for (const spec of specs) {
    const r = /^(\d*)-(\d*)$/.exec(spec);
    if (!r || (r[1] === "" && r[2] === "")) return { kind: "ignore" };
    if (r[1] === "") {
      // A suffix: the last n bytes (the whole file when it is shorter).
      const n = Number(r[2]);
      if (n > 0 && size > 0) wanted.push({ start: Math.max(0, size - n), end: size - 1 });
      continue;
    }
    const start = Number(r[1]);
    const last = r[2] === "" ? Infinity : Number(r[2]);
    // last < first makes the whole header invalid, which a server may ignore.
    if (last < start) return { kind: "ignore" };
    if (start < size) wanted.push({ start, end: Math.min(last, size - 1) });
  }
  if (wanted.length === 0) return { kind: "unsatisfiable" };
  return { kind: "ranges", ranges: coalesce(wanted) };
}

/** Merges ranges that overlap or touch; the others keep the order they were asked in. */
function coalesce(ranges: ByteRange[]): ByteRange[] {
  const order = ranges.map((r, i) => ({ ...r, first: i })).sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number; first: number }[] = [];
  for (const r of order) {
    const last = merged.at(-1);
    if (last && r.start <= last.end + 1) {
      last.end = Math.max(last.end, r.end);
      last.first = Math.min(last.first, r.first);
    } else merged.push({ ...r });
  }
  return merged.sort((a, b) => a.first - b.first).map(({ start, end }) => ({ start, end }));
}

/** A boundary per answer: random, so no published file can be made to contain it. */
export const newBoundary = (): string => crypto.randomUUID().replaceAll("-", "");

/** The body of a `multipart/byteranges; boundary=…` answer: each part with its type and Content-Range. */
export function multipartByteRanges(bytes: Uint8Array, ranges: ByteRange[], contentType: string, boundary: string): Uint8Array {
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  ranges.forEach((r, i) => {
    const head = `${i === 0 ? "" : "\r\n"}--${boundary}\r\nContent-Type: ${contentType}\r\nContent-Range: bytes ${r.start}-${r.end}/${bytes.length}\r\n\r\n`;
    pieces.push(encoder.encode(head), bytes.subarray(r.start, r.end + 1));
  });
  pieces.push(encoder.encode(`\r\n--${boundary}--\r\n`));
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
