/**
 * A throwaway S3 server for tests: s3rver in a node child process (under bun its ListObjectsV2 came back
 * unsorted), on a free loopback port, with a temp folder and one pre-created bucket.
 *
 * @example
 * const s3 = await startS3Server();
 * const store = createS3Store({ bucket: s3.bucket, endpoint: s3.endpoint, region: "us-east-1",
 *   forcePathStyle: true, accessKeyId: S3RVER_CREDENTIALS.accessKeyId, secretAccessKey: S3RVER_CREDENTIALS.secretAccessKey });
 * afterAll(() => s3.stop());
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** s3rver's only account. It checks the access key id, but does not verify SigV4 signatures. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

export type S3TestServer = {
  /** e.g. http://127.0.0.1:41234 — use with forcePathStyle: true. */
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
};

const START_TIMEOUT_MS = 15_000;
const STOP_GRACE_MS = 3_000;

export async function startS3Server(options: { bucket?: string } = {}): Promise<S3TestServer> {
  const bucket = options.bucket ?? "test-bucket";
  const dir = await mkdtemp(join(tmpdir(), "s3rver-"));
  const script = join(import.meta.dir, "s3rver-main.cjs");
  // s3rver encrypts ListObjectsV2 continuation tokens with DES, which OpenSSL 3 only has in its legacy
  // provider: without this flag every list past 1000 keys fails with InternalError.
  const args = ["--openssl-legacy-provider", script, dir, bucket];
  const child = spawn(process.env.NODE_BINARY ?? "node", args, { stdio: ["pipe", "pipe", "pipe"] });

  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    // Closing stdin asks the child to shut down; SIGKILL if it has not gone within the grace period.
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    if (child.exitCode === null && child.signalCode === null) await exited;
    clearTimeout(timer);
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const port = await readPort(child, exited, () => stderr);
    const endpoint = `http://127.0.0.1:${port}`;
    // Listening is not the same as answering: one real request before handing it out.
    await fetch(endpoint, { signal: AbortSignal.timeout(START_TIMEOUT_MS) }).then((r) => r.arrayBuffer());
    return { endpoint, bucket, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function readPort(child: ReturnType<typeof spawn>, exited: Promise<void>, stderr: () => string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const fail = (why: string) => {
      clearTimeout(timer);
      lines.close();
      reject(new Error(`s3rver did not start: ${why}${stderr() ? `\n${stderr()}` : ""}`));
    };
    const timer = setTimeout(() => fail(`no answer within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once("error", (err) => fail(err.message));
    void exited.then(() => fail(`it exited with code ${child.exitCode}`));
    lines.once("line", (line) => {
      clearTimeout(timer);
      lines.close();
      try {
        const { port } = JSON.parse(line) as { port: number };
        resolve(port);
      } catch {
        reject(new Error(`s3rver printed an unexpected line: ${line}`));
      }
    });
  });
}
