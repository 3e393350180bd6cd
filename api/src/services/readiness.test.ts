/** Readiness with stand-in parts: which failures make an instance not ready, and which are only reported. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Sql } from "../db/client";
import type { Config } from "../lib/config";
import { silentLogger } from "../lib/logger";
import type { ObjectStore } from "../storage/types";
import { checkReadiness } from "./readiness";

const sqlOk = (async () => [{ "?column?": 1 }]) as unknown as Sql;
const sqlDown = (async () => {
  throw new Error("connection refused");
}) as unknown as Sql;
const sqlHangs = (() => new Promise(() => {})) as unknown as Sql;
const store = (ping: () => Promise<void>) => ({ ping }) as unknown as ObjectStore;
const storeOk = store(async () => {});
const noModel: Pick<Config, "model"> = { model: { configured: false } };

let models: ReturnType<typeof Bun.serve>;
let modelStatus = 200;
let seenAuth: string | null = null;
let modelCalls = 0;
beforeAll(() => {
  models = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      seenAuth = req.headers.get("authorization");
      modelCalls++;
      return new URL(req.url).pathname === "/v1/models" ? Response.json({ data: [] }, { status: modelStatus }) : new Response("no", { status: 404 });
    },
  });
});
afterAll(() => models.stop(true));
const model = (): Pick<Config, "model"> => ({
  model: { configured: true, baseUrl: `http://127.0.0.1:${models.port}/v1/`, apiKey: "k-1", model: "m", models: ["m"] },
});

describe("readiness", () => {
  test("database and storage up: ready, and an unconfigured model says so", async () => {
    expect(await checkReadiness({ sql: sqlOk, store: storeOk, logger: silentLogger, config: noModel })).toEqual({
      status: "ready",
      database: "ok",
      storage: "ok",
      model: "not_configured",
    });
  });

  test("a failing or hanging database, or unreachable storage, is not ready", async () => {
    expect((await checkReadiness({ sql: sqlDown, store: storeOk, logger: silentLogger, config: noModel })).status).toBe("not_ready");
    const hung = await checkReadiness({ sql: sqlHangs, store: storeOk, logger: silentLogger, config: noModel }, { checkMs: 50, modelMs: 50 });
    expect(hung).toMatchObject({ status: "not_ready", database: "unreachable", storage: "ok" });
    const noStore = await checkReadiness({ sql: sqlOk, store: store(async () => Promise.reject(new Error("down"))), logger: silentLogger, config: noModel });
    expect(noStore).toMatchObject({ status: "not_ready", database: "ok", storage: "unreachable" });
  });

  test("the model endpoint is asked for /models with the key, and its failure does not decide readiness", async () => {
    modelStatus = 200;
    expect((await checkReadiness({ sql: sqlOk, store: storeOk, logger: silentLogger, config: model() })).model).toBe("ok");
    expect(seenAuth).toBe("Bearer k-1");
    modelStatus = 500;
    expect(await checkReadiness({ sql: sqlOk, store: storeOk, logger: silentLogger, config: model() })).toMatchObject({
      status: "ready",
      model: "unreachable",
    });
  });

  test("probes reuse the model's answer: the endpoint is asked once, not on every probe", async () => {
    modelStatus = 200;
    const config = model();
    const before = modelCalls;
    const deps = { sql: sqlOk, store: storeOk, logger: silentLogger, config };
    const reports = await Promise.all([checkReadiness(deps), checkReadiness(deps)]);
    for (let i = 0; i < 5; i++) reports.push(await checkReadiness(deps));
    expect(reports.every((r) => r.model === "ok")).toBe(true);
    expect(modelCalls - before).toBe(1);
    // Cached for a while, so a model that went down shows up on a later probe, not this one.
    modelStatus = 500;
    expect((await checkReadiness(deps)).model).toBe("ok");
    expect(modelCalls - before).toBe(1);
  });
});
