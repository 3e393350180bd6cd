/** The HTTP server: routes, records each request, takes the next scripted turn and plays it in the current mode. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cutToWindow, withPromptUsage } from "./context-window";
import { answerOllama } from "./ollama";
import { refuse } from "./refusals";
import { streamTurn } from "./streamed";
import type { ChatRequestBody, FakeModelServer, FakeServerMode, FakeTurn, RecordedRequest } from "./types";
import { wholeTurn } from "./whole";

export async function startFakeModelServer(options: { port?: number; hostname?: string } = {}): Promise<FakeModelServer> {
  const queue: FakeTurn[] = [];
  const requests: RecordedRequest[] = [];
  let responder: ((req: ChatRequestBody, index: number) => FakeTurn) | null = null;
  let counter = 0;
  let mode: FakeServerMode = {};

  // node:http rather than Bun.serve: a scripted cut must close the socket with a FIN after the data it
  // sent (so the client reads that data, then sees the body end early); Bun.serve can only reset it.
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (mode.ollama) {
      const answer = answerOllama(mode.ollama, req.method, url.pathname);
      if (answer) return json(200, answer);
    }
    if (req.method === "GET" && url.pathname === "/v1/models") {
      const window = mode.contextWindow ? { context_length: mode.contextWindow } : {};
      return json(200, { object: "list", data: [{ id: "fake-model", object: "model", owned_by: "tests", ...window }] });
    }
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return json(404, { error: { message: `No route ${req.method} ${url.pathname}` } });
    }
    let raw = "";
    for await (const part of req) raw += part;
    const body = JSON.parse(raw) as ChatRequestBody;
    const index = requests.length;
    const recorded: RecordedRequest = { body, headers: req.headers as Record<string, string>, at: Date.now() };
    requests.push(recorded);
    const refusal = refuse(body, mode);
    if (refusal) return json(400, refusal);
    const seen = mode.silentWindow ? cutToWindow(body, mode.silentWindow) : body;
    if (seen !== body) recorded.seen = seen.messages;
    const next = queue.shift() ?? responder?.(seen, index);
    if (!next) return json(500, { error: { message: "fake model: no scripted turn left", type: "server_error" } });
    if (next.kind === "http") {
      return json(next.status, next.body ?? { error: { message: `Scripted HTTP ${next.status}`, type: "server_error" } }, next.headers);
    }
    const id = `chatcmpl-fake-${++counter}`;
    const played = withPromptUsage(next, seen, mode);
    if (body.stream) await streamTurn(res, id, body.model, played, mode);
    else json(200, await wholeTurn(id, body.model, played));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.hostname ?? "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;

  return {
    baseUrl: `http://${address.address}:${address.port}/v1`,
    requests,
    enqueue: (...turns) => void queue.push(...turns),
    respondWith: (fn) => void (responder = fn),
    pending: () => queue.length,
    mode: (m) => void (mode = m),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      responder = null;
      mode = {};
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
