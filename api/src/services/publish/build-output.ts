/**
 * Finding and reading a build's output folder inside the sandbox. The folder is the one the build tool
 * reported (a line naming `<dir>/index.html`, as Vite prints), else the first of dist, build, out that
 * exists. It is listed by `find` inside the sandbox (names, kinds, sizes, link targets) and read through
 * the provider's file API, which never follows a symlink; a symlink pointing outside the folder refuses
 * the whole upload, one pointing inside publishes its target's bytes under the link's name.
 *
 * @example
 * const dir = await findOutputDir(sandbox, log);
 * const files = await readOutput(sandbox, dir, { maxBytes });
 */
import { posix } from "node:path";
import { FileTooLargeError, type Sandbox } from "../../sandbox/types";

export const OUTPUT_CANDIDATES = ["dist", "build", "out"] as const;

export class OutputError extends Error {}

const SAFE_DIR = /^[A-Za-z0-9._/-]+$/;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A folder named in the build's output as holding index.html (e.g. Vite's `dist/index.html  0.46 kB`). */
export function reportedOutputDir(log: string): string | null {
  const m = /(?:^|[\s'"`])((?:\.\/)?[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*)\/index\.html\b/m.exec(log.replace(/\x1b\[[0-9;]*m/g, ""));
  if (!m) return null;
  const dir = posix.normalize(m[1]!);
  return isSafeDir(dir) ? dir : null;
}

export function isSafeDir(dir: string): boolean {
  return SAFE_DIR.test(dir) && !dir.startsWith("/") && !dir.split("/").some((p) => p === ".." || p === "") && dir !== ".";
}

/** The output folder: the reported one, else dist, build or out; one holding index.html wins. Null when none exists. */
export async function findOutputDir(sandbox: Sandbox, log: string): Promise<string | null> {
  const reported = reportedOutputDir(log);
  const candidates = [...new Set([...(reported ? [reported] : []), ...OUTPUT_CANDIDATES])].filter(isSafeDir);
  const script = candidates
    .map((d) => `if [ -d ${quote(d)} ] && [ ! -L ${quote(d)} ]; then if [ -f ${quote(`${d}/index.html`)} ]; then echo "I ${d}"; else echo "D ${d}"; fi; fi`)
    .join("; ");
  const result = await sandbox.run(script, { timeoutMs: 30_000 });
  const found = result.stdout.split("\n").filter(Boolean);
  const withIndex = found.find((l) => l.startsWith("I "));
  const any = withIndex ?? found[0];
  return any ? any.slice(2) : null;
}

export type OutputEntry = { kind: "file" | "dir" | "link" | "other"; size: number; path: string; target: string };

/** Parses `find -printf '%y\0%s\0%P\0%l\0'`. */
export function parseListing(stdout: string): OutputEntry[] {
  const fields = stdout.split("\0");
  const entries: OutputEntry[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const y = fields[i]!.replace(/^\n+/, "");
    entries.push({
      kind: y === "f" ? "file" : y === "d" ? "dir" : y === "l" ? "link" : "other",
      size: Number(fields[i + 1]),
      path: fields[i + 2]!,
      target: fields[i + 3]!,
    });
  }
  return entries;
}

/**
 * Where a symlink at `path` (relative to the output folder) leads, relative to the same folder, or null
 * when it leads outside it (absolute, or climbing above it).
 */
export function linkInside(path: string, target: string): string | null {
  if (!target || target.startsWith("/")) return null;
  const resolved = posix.normalize(posix.join(posix.dirname(path), target));
  if (resolved === ".." || resolved.startsWith("../") || resolved === ".") return null;
  return resolved;
}

export type OutputFile = { path: string; bytes: Uint8Array };

/**
 * Every file of the output folder with its bytes. Throws OutputError when a symlink leads outside the
 * folder, when the files add up to more than `maxBytes`, or when the listing was cut short.
 */
export async function readOutput(sandbox: Sandbox, dir: string, o: { maxBytes: number; note?: (line: string) => void }): Promise<OutputFile[]> {
  const listed = await sandbox.run(`cd -- ${quote(dir)} && find . -mindepth 1 -printf '%y\\0%s\\0%P\\0%l\\0'`, { timeoutMs: 60_000 });
  if (listed.exitCode !== 0) throw new OutputError(`Could not list ${dir}: ${listed.stderr.slice(-500)}`);
  if (listed.truncated) throw new OutputError(`${dir} holds too many files to publish.`);
  const entries = parseListing(listed.stdout);
  const byPath = new Map(entries.map((e) => [e.path, e]));

  const wanted: { path: string; source: string; size: number }[] = [];
  for (const e of entries) {
    if (e.kind === "file") wanted.push({ path: e.path, source: e.path, size: e.size });
    else if (e.kind === "link") {
      const inside = linkInside(e.path, e.target);
      if (inside === null) throw new OutputError(`${dir}/${e.path} is a symlink to ${e.target}, outside ${dir}: refused.`);
      const target = byPath.get(inside);
      if (target?.kind === "file") wanted.push({ path: e.path, source: inside, size: target.size });
      else o.note?.(`Skipped ${dir}/${e.path}: a symlink to something that is not a file.`);
    } else if (e.kind === "other") o.note?.(`Skipped ${dir}/${e.path}: not a regular file.`);
  }

  const total = wanted.reduce((n, f) => n + f.size, 0);
  if (total > o.maxBytes) throw new OutputError(tooBig(dir, total, o.maxBytes));

  let read = 0;
  const files: OutputFile[] = [];
  const queue = [...wanted];
  const worker = async () => {
    for (let f = queue.shift(); f; f = queue.shift()) {
      let bytes: Uint8Array | null;
      try {
        bytes = await sandbox.files.read(`${dir}/${f.source}`, { maxBytes: o.maxBytes - read });
      } catch (error) {
        if (error instanceof FileTooLargeError) throw new OutputError(tooBig(dir, read + error.size, o.maxBytes));
        throw error;
      }
      // null: replaced by something that is not a file since the listing (the provider never follows links).
      if (bytes === null) throw new OutputError(`${dir}/${f.source} changed while it was read; publish again.`);
      read += bytes.length;
      if (read > o.maxBytes) throw new OutputError(tooBig(dir, read, o.maxBytes));
      files.push({ path: f.path, bytes });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

const size = (n: number) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`);
/** The refusal of a deployment over MAX_DEPLOYMENT_BYTES: what holds how much, and the limit. */
export const tooBig = (what: string, bytes: number, max: number) =>
  `${what} holds ${size(bytes)}, over the ${size(max)} a deployment may hold (MAX_DEPLOYMENT_BYTES).`;
