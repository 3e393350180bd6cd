/**
 * A ReadableStream driven by an async generator, one chunk per pull: the generator runs only as fast as
 * the consumer reads (backpressure), so what it produces never piles up in memory, and a consumer that goes
 * away (a cancelled download) ends the generator, running its `finally` blocks (open files are closed).
 *
 * @example
 * return new Response(pullStream(chunksOfTheProject(), { collectEvery: DOWNLOAD_COLLECT_BYTES }));
 */

export type PullStreamOptions = {
  /** Chunks made ready ahead of the reader: a couple keep a socket busy; more would only hold memory. */
  readAhead?: number;
  /**
   * After this many bytes have gone out, ask for a young-generation collection (under a millisecond).
   * JavaScriptCore collects when garbage reaches a share of the whole heap, so on a server holding a few
   * hundred MB (the embedded database's included) the spent pieces of a long stream would pile up to
   * tens or hundreds of MB before it ran. 0 = leave it to the collector.
   */
  collectEvery?: number;
};

/** The pace of collections for long downloads: the spent pieces never add up to more than about this. */
export const DOWNLOAD_COLLECT_BYTES = 8 * 1024 * 1024;

export function pullStream(chunks: AsyncGenerator<Uint8Array, void>, options: PullStreamOptions = {}): ReadableStream<Uint8Array> {
  const { readAhead = 2, collectEvery = 0 } = options;
  let sinceCollect = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          const next = await chunks.next();
          if (next.done) return controller.close();
          // An empty chunk would look like progress to the consumer while carrying nothing: skip it.
          if (!next.value.length) continue;
          sinceCollect += next.value.length;
          if (collectEvery && sinceCollect >= collectEvery) {
            sinceCollect = 0;
            Bun.gc(false);
          }
          return controller.enqueue(next.value);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: readAhead },
  );
}

/** The chunks of `stream` as an async generator (returning early cancels the stream). */
export async function* readChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array, void> {
  const reader = stream.getReader();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
  } finally {
    await reader.cancel().catch(() => {});
  }
}
