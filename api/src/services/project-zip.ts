/**
 * A project's files as a ZIP built while it streams, at the reader's pace: small files are read whole (at
 * most WHOLE_FILE bytes), larger ones flow from storage piece by piece through the deflater (or as stored
 * blocks when they do not compress) with their CRC and sizes in a data descriptor after them. The server
 * holds a few pieces at a time however large the project (the browser's own zip, from the download map,
 * suits small projects).
 *
 * @example
 * const { name, stream } = await streamProjectZip(ctx, uid, projectId);
 * return new Response(stream, { headers: { "content-type": "application/zip" } });
 */
import { deflateRawSync } from "node:zlib";
import * as files from "../db/files";
import { DOWNLOAD_COLLECT_BYTES, pullStream, readChunks } from "../lib/pull-stream";
import type { ServiceContext } from "./context";
import type { ProjectAccess } from "./access";
import { getProject } from "./projects";
import {
  centralEntry,
  concat,
  dataDescriptor,
  DEFLATE,
  dosDateTime,
  endOfCentralDirectory,
  finalStoredBlock,
  localHeader,
  STORED,
  storedBlocks,
  type ZipEntry,
} from "./zip-format";

/** Files up to this size are read whole and written with their sizes up front, the most widely read form. */
export const WHOLE_FILE = 256 * 1024;
/** Bytes deflated first to judge a file: content that does not shrink (media, archives) is not deflated. */
const SAMPLE = 64 * 1024;
/** The most bytes handed on in one chunk: a view of a larger buffer would keep all of it alive. */
const PIECE = 64 * 1024;

const compresses = (sample: Uint8Array) => sample.length <= 256 || deflateRawSync(sample).length < sample.length * 0.95;

/** `bytes` in views of at most PIECE bytes. */
function* pieces(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += PIECE) yield bytes.subarray(at, at + PIECE);
}

/** The owner's project as a streamed ZIP, and a file name for it. */
export async function streamProjectZip(ctx: ServiceContext, access: ProjectAccess): Promise<{ name: string; stream: ReadableStream<Uint8Array> }> {
  const project = await getProject(ctx, access);
  const rows = await files.listFiles(ctx.sql, project.id);
  return { name: project.name, stream: pullStream(zipChunks(ctx, rows), { collectEvery: DOWNLOAD_COLLECT_BYTES }) };
}

type Row = Awaited<ReturnType<typeof files.listFiles>>[number];

async function* zipChunks(ctx: ServiceContext, rows: Row[]): AsyncGenerator<Uint8Array, void> {
  const encoder = new TextEncoder();
  const entries: ZipEntry[] = [];
  let offset = 0;
  for (const row of rows) {
    const base = { name: encoder.encode(row.path), offset, ...dosDateTime(row.updatedAt) };
    const written = row.size <= WHOLE_FILE ? yield* wholeEntry(ctx, row, base) : yield* streamedEntry(ctx, row, base);
    if (!written) continue; // replaced or deleted since the listing
    entries.push(written.entry);
    offset += written.bytes;
  }
  const central = concat(entries.map(centralEntry));
  yield concat([central, endOfCentralDirectory(entries.length, central.length, offset)]);
}

type EntryBase = Pick<ZipEntry, "name" | "offset" | "time" | "date">;
type Written = { entry: ZipEntry; bytes: number } | null;

async function* wholeEntry(ctx: ServiceContext, row: Row, base: EntryBase): AsyncGenerator<Uint8Array, Written> {
  const bytes = await ctx.store.get(row.storageKey);
  if (!bytes) return null;
  const deflated = compresses(bytes.subarray(0, SAMPLE)) ? deflateRawSync(bytes) : bytes;
  const stored = deflated.length >= bytes.length;
  const body = stored ? bytes : deflated;
  const entry: ZipEntry = {
    ...base,
    crc: Bun.hash.crc32(bytes) >>> 0,
    compressed: body.length,
    size: bytes.length,
    method: stored ? STORED : DEFLATE,
    streamed: false,
  };
  const header = localHeader(entry);
  yield header;
  yield* pieces(body);
  return { entry, bytes: header.length + body.length };
}

async function* streamedEntry(ctx: ServiceContext, row: Row, base: EntryBase): AsyncGenerator<Uint8Array, Written> {
  const source = await ctx.store.getStream(row.storageKey);
  if (!source) return null;
  const entry: ZipEntry = { ...base, crc: 0, compressed: 0, size: 0, method: DEFLATE, streamed: true };
  const reader = source.getReader();
  try {
    const header = localHeader(entry);
    yield header;
    const first = await reader.read();
    // Every piece read from storage passes here once: the CRC and size of the original bytes.
    const seen = (piece: Uint8Array) => {
      entry.crc = Bun.hash.crc32(piece, entry.crc) >>> 0;
      entry.size += piece.length;
      return piece;
    };
    const rest = async function* () {
      if (!first.done) yield seen(first.value);
      for (let r = await reader.read(); !r.done; r = await reader.read()) yield seen(r.value);
    };
    const out = first.done || !compresses(first.value.subarray(0, SAMPLE)) ? storedStream(rest()) : readChunks(deflatedStream(rest()));
    for await (const chunk of out) {
      entry.compressed += chunk.length;
      yield* pieces(chunk);
    }
    const descriptor = dataDescriptor(entry);
    yield descriptor;
    return { entry, bytes: header.length + entry.compressed + descriptor.length };
  } finally {
    await reader.cancel().catch(() => {});
  }
}

async function* storedStream(input: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const piece of input) yield* storedBlocks(piece);
  yield finalStoredBlock();
}

/** `input` through a streaming raw deflater: pulled only as the deflater's output is read. */
function deflatedStream(input: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  const deflater = new CompressionStream("deflate-raw") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
  return pullStream(input, { readAhead: 1 }).pipeThrough(deflater);
}
