/**
 * A fetch-based Server-Sent Events reader, for streams an EventSource cannot open: a POST with a JSON body
 * and the bearer token (POST /api/messages/stream), or a GET that needs the bearer (the active run's replay).
 * Events are split on blank lines; a `data:` field may arrive cut anywhere across network chunks.
 *
 * @example
 * const res = await api.messages.stream({ projectId, content, enableReasoning: false });
 * const ended = await readSse(res.body!, (data) => handle(JSON.parse(data)), { signal });
 */

/**
 * Incremental SSE parser: feed it decoded text as it arrives; it calls `onData` with each event's data
 * (several `data:` lines of one event joined by "\n"). Comments and other fields are ignored.
 */
export function createSseParser(onData: (data: string) => void) {
  let buffer = "";
  let data: string[] = [];
  // A CR ending one chunk may be the first half of a CRLF in the next.
  let pendingCr = false;

  const dispatch = () => {
    if (data.length) onData(data.join("\n"));
    data = [];
  };

  const line = (text: string) => {
    if (text === "") return dispatch();
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
  };

  return {
    push(text: string): void {
      if (pendingCr && text.startsWith("\n")) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const ch = buffer[i];
        if (ch !== "\n" && ch !== "\r") continue;
        line(buffer.slice(start, i));
        if (ch === "\r") {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === "\n") i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    /** The stream ended: a last line without its newline, or an event without its blank line, still counts. */
    end(): void {
      if (buffer) line(buffer);
      buffer = "";
      dispatch();
    },
  };
}

/**
 * Reads a body to its end, calling `onData` per event. Resolves when the body ends (or `signal` aborts);
 * rejects when the connection fails mid-way, which callers treat as a dropped connection.
 */
export async function readSse(body: ReadableStream<Uint8Array>, onData: (data: string) => void, options: { signal?: AbortSignal } = {}): Promise<void> {
  const parser = createSseParser(onData);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const abort = () => void reader.cancel().catch(() => {});
  options.signal?.addEventListener("abort", abort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
  } finally {
    options.signal?.removeEventListener("abort", abort);
    reader.releaseLock();
  }
}
