/**
 * The process table's own rules with real host processes (a launcher over Bun.spawn, no sandbox): the ring
 * buffer's bound, output without a newline shown after a pause, and a failed launch reading as crashed.
 * Sandboxed behaviour (trees, ports, crash loops) is the process contract's (test/process-contract.ts).
 */
import { expect, test } from "bun:test";
import { waitFor } from "../test/sandbox-contract.ts";
import { MAX_NAMED_PROCESSES } from "@shared/schemas/processes";
import { createProcessTable, type ProcessLauncher } from "./process-table.ts";
import { MAX_PROCESSES } from "./types.ts";

const hostLauncher: ProcessLauncher = async (command, { onOutput }) => {
  const child = Bun.spawn(["sh", "-c", command], { stdout: "pipe", stderr: "pipe" });
  const pump = async (stream: ReadableStream<Uint8Array>, name: "stdout" | "stderr") => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) onOutput(name, decoder.decode(read.value, { stream: true }));
  };
  const pumped = Promise.all([pump(child.stdout, "stdout"), pump(child.stderr, "stderr")]);
  return {
    exited: child.exited.then(async (code) => (await pumped, code)),
    signal: (signal) => child.kill(signal),
    ports: async () => [],
  };
};

test("the log keeps only the newest output within its bound, and cursors keep counting", async () => {
  const table = createProcessTable(hostLauncher, { bufferBytes: 1000 });
  await table.start("many", "i=0; while [ $i -lt 500 ]; do echo line-$i; i=$((i+1)); done");
  await waitFor("the end", async () => (await table.list())[0]?.status === "exited");
  const logs = (await table.logs("many"))!;
  expect(logs.cursor).toBe(500);
  const size = logs.lines.reduce((n, l) => n + l.text.length + 1, 0);
  expect(size).toBeLessThanOrEqual(1000);
  expect(logs.lines.at(-1)!.text).toBe("line-499");
  expect(logs.lines.length).toBeGreaterThan(50);
  expect((await table.logs("many", 498))!.lines.map((l) => l.text)).toEqual(["line-498", "line-499"]);
  await table.close();
});

test("output without a newline becomes a line after a pause; a stop ends a running process", async () => {
  const table = createProcessTable(hostLauncher, { graceMs: 500 });
  await table.start("prompt", "printf 'Name? '; exec sleep 30");
  await waitFor("the prompt", async () => (await table.logs("prompt"))!.lines.some((l) => l.text === "Name? "));
  const stopped = await table.stop("prompt");
  expect(stopped).toMatchObject({ status: "exited", exitCode: 143 });
  await table.close();
});

test("a command that cannot be launched reads as crashed, with the reason in its log", async () => {
  const table = createProcessTable(async () => {
    throw new Error("no room");
  });
  expect(await table.start("x", "true")).toMatchObject({ status: "crashed", exitCode: 126 });
  expect((await table.logs("x"))!.lines.map((l) => l.text)).toEqual(["could not start: no room"]);
});

test("the table's limit is the one the API states (kept apart so the provider loads without shared/)", () => {
  expect(MAX_PROCESSES).toBe(MAX_NAMED_PROCESSES);
});
