/**
 * A project's download map, `{ projectName, filesCount, files: { path: content }, binary }`, as JSON text
 * written while it streams at the reader's pace. Small files are read whole (at most WHOLE_FILE bytes);
 * larger ones flow from storage in pieces, encoded piece by piece (base64 for binary, JSON-escaped text
 * otherwise), so the server holds a few pieces at a time however large the project. Telling a large file's
 * text from binary needs all of it: it is checked in a first streamed pass that, for binary content, stops
 * at the first piece. Binary paths are listed in `binary`, after the map, so the client restores their bytes.
 *
 * @example
 * return new Response(await streamDownloadMap(ctx, uid, projectId), { headers: { "content-type": "application/json" } });
 */
import type { DownloadMap } from "@shared/schemas/file";
import * as files from "../db/files";
import { DOWNLOAD_COLLECT_BYTES, pullStream, readChunks } from "../lib/pull-stream";
import type { ServiceContext } from "./context";
import { asText, isTextStream } from "./file-content";
import type { ProjectAccess } from "./access";
import { getProject } from "./projects";

/** Files up to this size are read whole; larger ones are streamed. */
const WHOLE_FILE = 256 * 1024;
/** Bytes per base64 piece: a multiple of 3, so pieces join without padding. */
const BASE64_PIECE = 3 * 16 * 1024;
/** Characters per escaped text piece. */
const TEXT_PIECE = 64 * 1024;

const encoder = new TextEncoder();
const encode = (text: string) => encoder.encode(text);
/** A string's JSON escape without its quotes (a lone surrogate at a piece's edge becomes its own \u escape). */
const escaped = (text: string) => encode(JSON.stringify(text).slice(1, -1));
const base64 = (bytes: Uint8Array) => encode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"));

type Row = Awaited<ReturnType<typeof files.listFiles>>[number];

export async function streamDownloadMap(ctx: ServiceContext, access: ProjectAccess): Promise<ReadableStream<Uint8Array>> {
  const project = await getProject(ctx, access);
  const rows = await files.listFiles(ctx.sql, project.id);
  return pullStream(mapChunks(ctx, project.name, rows), { collectEvery: DOWNLOAD_COLLECT_BYTES });
}

/** The download map in memory: for tests and small callers only (the route streams `streamDownloadMap`). */
export async function downloadProject(ctx: ServiceContext, access: ProjectAccess): Promise<DownloadMap & { binary: string[] }> {
  const text = await new Response(await streamDownloadMap(ctx, access)).text();
  return JSON.parse(text) as DownloadMap & { binary: string[] };
}

async function* mapChunks(ctx: ServiceContext, projectName: string, rows: Row[]): AsyncGenerator<Uint8Array, void> {
  const binary: string[] = [];
  yield encode(`{"projectName":${JSON.stringify(projectName)},"filesCount":${rows.length},"files":{`);
  for (const [i, row] of rows.entries()) {
    // A file named "__proto__" is a key like any other: the JSON is written, never built as an object.
    yield encode(`${i ? "," : ""}${JSON.stringify(row.path)}:"`);
    const isText = row.size <= WHOLE_FILE ? yield* wholeContent(ctx, row) : yield* streamedContent(ctx, row);
    if (!isText) binary.push(row.path);
    yield encode(`"`);
  }
  yield encode(`},"binary":${JSON.stringify(binary.sort())}}`);
}

/** Yields the file's content as the inside of a JSON string; returns whether it was text. */
async function* wholeContent(ctx: ServiceContext, row: Row): AsyncGenerator<Uint8Array, boolean> {
  const bytes = (await ctx.store.get(row.storageKey)) ?? new Uint8Array();
  const text = asText(bytes);
  if (text === null) {
    for (let at = 0; at < bytes.length; at += BASE64_PIECE) yield base64(bytes.subarray(at, at + BASE64_PIECE));
    return false;
  }
  for (let at = 0; at < text.length; at += TEXT_PIECE) yield escaped(text.slice(at, at + TEXT_PIECE));
  return true;
}

async function* streamedContent(ctx: ServiceContext, row: Row): AsyncGenerator<Uint8Array, boolean> {
  const open = async () => {
    const stream = await ctx.store.getStream(row.storageKey);
    return stream ? readChunks(stream) : null;
  };
  const probe = await open();
  // Gone since the listing (replaced or deleted): an empty file, as a whole read would give.
  if (!probe) return true;
  const isText = await isTextStream(probe);
  await probe.return();
  const pieces = await open();
  if (!pieces) return isText;
  if (isText) {
    // Decoded as a stream, so a character split between pieces is joined before it is escaped.
    const decoder = new TextDecoder();
    for await (const piece of pieces) yield escaped(decoder.decode(piece, { stream: true }));
    yield escaped(decoder.decode());
    return true;
  }
  // Base64 in whole 3-byte groups: the 0-2 bytes a piece leaves over are completed from the next one.
  let carry = new Uint8Array();
  for await (let piece of pieces) {
    if (carry.length) {
      const take = Math.min(3 - carry.length, piece.length);
      carry = Buffer.concat([carry, piece.subarray(0, take)]);
      piece = piece.subarray(take);
      if (carry.length < 3) continue;
      yield base64(carry);
    }
    const whole = piece.length - (piece.length % 3);
    yield base64(piece.subarray(0, whole));
    carry = piece.slice(whole);
  }
  yield base64(carry);
  return false;
}
