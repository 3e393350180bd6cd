/**
 * Minimal leveled logger: one JSON line per event, so logs can be shipped and searched. Every line written
 * while a request is being handled (routes, services, the agent runs it starts) carries that request's id,
 * from the request log middleware's `logContext.run`, without each caller passing it along.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The request (its id) on whose behalf the code running now works; empty outside any request. */
export const logContext = new AsyncLocalStorage<{ requestId: string }>();
type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type Logger = Record<Level, (msg: string, fields?: Record<string, unknown>) => void>;

export function createLogger(min: Level = "info", write: (line: string) => void = (l) => console.log(l)): Logger {
  const log = (level: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (order[level] < order[min]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...logContext.getStore(), ...fields }));
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
