/**
 * Where the server listens, the URL users reach it by, its data folder and how much it logs.
 *
 * @example
 * serverConfig(z.object(serverEnv).parse({ PORT: "8080" })); // { port: 8080, host: "127.0.0.1", … }
 */
import { resolve } from "node:path";
import { z } from "zod";
import { optionalString, positiveInt } from "./values";

export const serverEnv = {
  PORT: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return 3000;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) {
        ctx.addIssue({ code: "custom", message: `must be a port number 0-65535, got "${v}"` });
        return z.NEVER;
      }
      return n;
    }),
  HOST: optionalString,
  // Prometheus's port, off the public one: 0 or "off" serves no metrics at all.
  METRICS_PORT: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return 9091;
      if (v === "0" || v.toLowerCase() === "off") return null;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 65535) {
        ctx.addIssue({ code: "custom", message: `must be a port number 1-65535, or 0 / off to turn metrics off, got "${v}"` });
        return z.NEVER;
      }
      return n;
    }),
  PUBLIC_URL: optionalString.pipe(z.url({ message: "must be a full URL such as https://builder.example.com" }).optional()),
  DATA_DIR: optionalString,
  LOG_LEVEL: optionalString.pipe(z.enum(["debug", "info", "warn", "error"]).optional()),
  DRAIN_TIMEOUT_S: positiveInt(25),
};

export type ServerConfig = {
  port: number;
  host: string;
  /** Where GET /metrics is served (on HOST), never on the public port; null = off (METRICS_PORT=0 or off). */
  metricsPort: number | null;
  publicUrl: string | undefined;
  dataDir: string;
  logLevel: "debug" | "info" | "warn" | "error";
  /** On SIGTERM, how long publish builds already running get to finish (no new work starts meanwhile). */
  drainTimeoutMs: number;
};

export function serverConfig(e: z.infer<z.ZodObject<typeof serverEnv>>): ServerConfig {
  return {
    port: e.PORT,
    host: e.HOST ?? "127.0.0.1",
    metricsPort: e.METRICS_PORT,
    publicUrl: e.PUBLIC_URL,
    dataDir: resolve(e.DATA_DIR ?? "./data"),
    logLevel: e.LOG_LEVEL ?? "info",
    drainTimeoutMs: e.DRAIN_TIMEOUT_S * 1000,
  };
}
