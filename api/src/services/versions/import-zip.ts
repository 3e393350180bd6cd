/**
 * A new project from a .zip upload. Every entry is checked before anything is written: paths follow the
 * same rules as any file write, `..`, absolute paths and symbolic links are refused, what the sandbox sync
 * ignores (`node_modules`, `.git`, build output, caches, shell histories) is skipped, and the file count, total size, per-file size and compression ratio are limited
 * (sizes are counted while inflating, so a zip that lies about them stops there). Binary files stay
 * binary. The imported files are the project's first version.
 *
 * @example
 * const project = await importProjectZip(ctx, uid, { zip: bytes, fileName: "todo.zip" }, limits);
 */
import { MAX_FILE_CONTENT_BYTES } from "@shared/schemas/file";
import { MAX_PROJECT_NAME_LENGTH, type Project } from "@shared/schemas/project";
import { filePathProblem } from "@shared/file-path";
import JSZip from "jszip";
import { isIgnoredName } from "../../sandbox/ignored-paths";
import { type AppError, badRequest, tooLarge } from "../../lib/errors";
import type { ServiceContext } from "../context";
import { writeFileAtPath } from "../files";
import { projectAccessWithProject } from "../access";
import { createProject, deleteProject } from "../projects";
import { forEachLimit } from "./project-lock";
import { takeVersion } from "./snapshot";

export type ImportLimits = {
  maxFiles: number;
  maxTotalBytes: number;
  maxFileBytes: number;
  /** Inflated size over compressed size above which an entry (over 1 MB inflated) is taken for a zip bomb. */
  maxRatio: number;
};

export const DEFAULT_MAX_RATIO = 200;
const RATIO_CHECKED_FROM = 1024 * 1024;
/** Never imported: what the sandbox sync ignores (it would never reach the sandbox), and macOS's zip debris. */
const skipped = (segment: string) => isIgnoredName(segment) || segment === "__MACOSX";
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export const importLimitsFrom = (limits: { maxFilesPerProject: number; maxProjectBytes: number }): ImportLimits => ({
  maxFiles: limits.maxFilesPerProject,
  maxTotalBytes: limits.maxProjectBytes,
  maxFileBytes: MAX_FILE_CONTENT_BYTES,
  maxRatio: DEFAULT_MAX_RATIO,
});

/** What jszip knows of an entry from the central directory (not in its public types). */
type Sizes = { compressedSize: number; uncompressedSize: number };
const sizesOf = (entry: JSZip.JSZipObject): Sizes => (entry as unknown as { _data: Sizes })._data;

type Planned = { path: string; entry: JSZip.JSZipObject; size: number };

function plan(zip: JSZip, limits: ImportLimits): Planned[] {
  const kept: Planned[] = [];
  let total = 0;
  for (const entry of Object.values(zip.files)) {
    const name = entry.unsafeOriginalName ?? entry.name;
    if (entry.dir) continue;
    const mode = typeof entry.unixPermissions === "number" ? entry.unixPermissions : 0;
    if ((mode & S_IFMT) === S_IFLNK) throw badRequest(`${name} is a symbolic link; links are not imported. Replace it with the file itself.`);
    if (name.startsWith("/") || /^[a-zA-Z]:/.test(name)) throw badRequest(`${name} is an absolute path; every entry must be relative to the project.`);
    if (name.split(/[/\\]/).includes("..")) throw badRequest(`${name} contains '..'; every entry must stay inside the project.`);
    const segments = name.split("/");
    if (segments.some(skipped) || segments.at(-1) === ".DS_Store") continue;
    const problem = filePathProblem(name);
    if (problem) throw badRequest(`${name}: ${problem}.`);

    const { compressedSize, uncompressedSize } = sizesOf(entry);
    if (uncompressedSize > limits.maxFileBytes) {
      throw tooLarge(`${name} is ${mb(uncompressedSize)}; a file may be at most ${mb(limits.maxFileBytes)}.`);
    }
    if (uncompressedSize > RATIO_CHECKED_FROM && uncompressedSize / Math.max(1, compressedSize) > limits.maxRatio) {
      throw badRequest(
        `${name} inflates ${Math.round(uncompressedSize / Math.max(1, compressedSize))} times; this looks like a zip bomb and was not imported.`,
      );
    }
    total += uncompressedSize;
    kept.push({ path: name, entry, size: uncompressedSize });
  }
  if (kept.length > limits.maxFiles) throw tooLarge(`The zip holds ${kept.length} files; a project may have at most ${limits.maxFiles}.`);
  if (total > limits.maxTotalBytes) throw tooLarge(`The zip inflates to ${mb(total)}; a project may hold at most ${mb(limits.maxTotalBytes)}.`);
  if (kept.length === 0) throw badRequest("The zip holds no files to import.");
  return stripCommonFolder(kept);
}

/** "my-app/src/x.ts", "my-app/package.json" → "src/x.ts", "package.json" (how most zips of a project look). */
function stripCommonFolder(files: Planned[]): Planned[] {
  const first = files[0]!.path.split("/")[0]!;
  if (!files.every((f) => f.path.startsWith(`${first}/`))) return files;
  return files.map((f) => ({ ...f, path: f.path.slice(first.length + 1) }));
}

/** jszip's own stream of an entry's inflated bytes (its Node stream is not async-iterable under Bun). */
type ChunkStream = {
  on(event: "data", listener: (chunk: Uint8Array) => void): ChunkStream;
  on(event: "end", listener: () => void): ChunkStream;
  on(event: "error", listener: (error: unknown) => void): ChunkStream;
  resume(): ChunkStream;
  pause(): ChunkStream;
};

/** Inflates one entry, refusing as soon as it yields more than it declared (or more than may remain). */
function inflate(file: Planned, budget: { left: number }): Promise<Uint8Array> {
  const stream = (file.entry as unknown as { internalStream(type: "uint8array"): ChunkStream }).internalStream("uint8array");
  const chunks: Uint8Array[] = [];
  let length = 0;
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (error: AppError) => {
      if (failed) return;
      failed = true;
      stream.pause();
      reject(error);
    };
    stream
      .on("data", (chunk) => {
        if (failed) return;
        length += chunk.length;
        budget.left -= chunk.length;
        if (length > file.size || budget.left < 0) {
          fail(badRequest(`${file.path} inflates to more than the zip says; this looks like a zip bomb and was not imported.`));
          return;
        }
        chunks.push(chunk);
      })
      .on("error", (error) => fail(badRequest(`${file.path} could not be read from the zip (${error instanceof Error ? error.message : String(error)}).`)))
      .on("end", () => {
        if (failed) return;
        const out = new Uint8Array(length);
        let at = 0;
        for (const chunk of chunks) {
          out.set(chunk, at);
          at += chunk.length;
        }
        resolve(out);
      })
      .resume();
  });
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

function projectName(input: { name?: string; fileName?: string }): string {
  const fromFile = input.fileName?.replace(/\.zip$/i, "").trim();
  const name = input.name?.trim() || fromFile || "Imported project";
  return name.slice(0, MAX_PROJECT_NAME_LENGTH);
}

export async function importProjectZip(
  ctx: ServiceContext,
  ownerId: string,
  input: { zip: Uint8Array; fileName?: string; name?: string },
  limits: ImportLimits,
): Promise<Project> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(input.zip);
  } catch {
    throw badRequest("The upload is not a readable .zip file.");
  }
  const files = plan(zip, limits);
  // Inflate everything before the project exists, so a bad entry leaves nothing behind.
  const budget = { left: limits.maxTotalBytes };
  const contents = new Map<string, Uint8Array>();
  for (const file of files) contents.set(file.path, await inflate(file, budget));

  const created = await createProject(ctx, ownerId, { name: projectName(input) });
  const { access, project } = await projectAccessWithProject(ctx, ownerId, created.id, "own");
  try {
    // The file service records each file's hash as it writes, so the version below reads nothing back.
    await forEachLimit([...contents], 4, async ([path, bytes]) => {
      await writeFileAtPath(ctx, access, path, bytes);
    });
    const label = input.fileName ? `Imported from ${input.fileName}` : "Imported from a zip";
    await takeVersion(ctx, { projectId: project.id, source: "manual", label: label.slice(0, 200) });
  } catch (error) {
    await deleteProject(ctx, access).catch((e) => ctx.logger.warn("half-imported project not removed", { projectId: project.id, error: String(e) }));
    throw error;
  }
  return (await projectAccessWithProject(ctx, ownerId, project.id, "own")).project;
}
