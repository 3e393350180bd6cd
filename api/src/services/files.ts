/**
 * Project files: metadata rows in `files`, contents in the object store as content-addressed blobs
 * (content-blobs.ts), the row recording the hash it wrote. Rows only ever point at content that is fully
 * written, and a blob no row or version names is removed by the retention sweep, so a failure on either side
 * leaves no row without content and nothing stored for ever:
 * - write: store the blob (unless it is stored already), then insert/update the row: one storage write.
 * - delete: the row (and, for content written before hashes were kept, its own object, in the same transaction).
 * - rename: the row alone (keys do not contain the path).
 * Changes take an optional `expectedKey` (the content the caller believes is there; a restore passes it) and
 * answer the content they replaced or removed when it was another (`unexpected`), kept as a blob.
 * Writes (API, agent and sandbox sync alike) also keep each project within MAX_FILES_PER_PROJECT and
 * MAX_PROJECT_BYTES (413). Each change is also handed, bytes and all, to the project's sandbox on this
 * instance (`ctx.sandboxSync`), awaited, so a command run right after the write sees it.
 */
import { MAX_FILE_CONTENT_BYTES, type FileContent, type ProjectFile } from "@shared/schemas/file";
import * as files from "../db/files";
import { touchProject } from "../db/projects";
import { conflict, notFound, tooLarge } from "../lib/errors";
import { releaseContent, storeContent, unexpectedContent } from "./content-blobs";
import { isUuid, publishFileEvent, type ServiceContext } from "./context";
import { asText } from "./file-content";
import type { ProjectAccess } from "./access";

const encoder = new TextEncoder();
const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === "23505";

// Every function takes the caller's checked access (services/access.ts): an agent run gets it once, at its
// start, rather than on every tool call.

export async function listProjectFiles(ctx: ServiceContext, access: ProjectAccess): Promise<ProjectFile[]> {
  return (await files.listFiles(ctx.sql, access.projectId)).map(files.toPublicFile);
}

/** The file at `path` with its content (empty and `binary` for a binary file), or null when there is none. */
export async function readFileInProject(ctx: ServiceContext, access: ProjectAccess, path: string): Promise<FileContent | null> {
  const file = await files.findFileByPath(ctx.sql, access.projectId, path);
  if (!file) return null;
  const bytes = await ctx.store.get(file.storageKey);
  if (!bytes) throw notFound("File content");
  const text = asText(bytes);
  return { ...files.toPublicFile(file), content: text ?? "", binary: text === null };
}

async function getFileInProject(ctx: ServiceContext, access: ProjectAccess, fileId: string) {
  const file = isUuid(fileId) ? await files.findFileInProject(ctx.sql, access.projectId, fileId) : null;
  if (!file) throw notFound("File");
  return file;
}

function encodeContent(content: string): Uint8Array {
  const bytes = encoder.encode(content);
  if (bytes.length > MAX_FILE_CONTENT_BYTES) {
    throw tooLarge(`File content is ${bytes.length} bytes; the limit is ${MAX_FILE_CONTENT_BYTES} bytes.`);
  }
  return bytes;
}

/** The content the caller believes is at the path or id now: its storage key, or null for "no file". */
export type Expectation = { expectedKey?: string | null };
/** Content a change replaced or removed that was not the expected one (only when `expectedKey` was given). */
export type Unexpected = { sha256: string; size: number } | null;
export type WriteResult = { file: ProjectFile; created: boolean; unexpected: Unexpected };

/** Creates the file, or replaces its content when the path exists. `created` says which happened. */
export async function writeFileAtPath(
  ctx: ServiceContext,
  access: ProjectAccess,
  path: string,
  content: string | Uint8Array,
  expect: Expectation = {},
): Promise<WriteResult> {
  const { projectId, ownerId } = access;
  const bytes = typeof content === "string" ? encodeContent(content) : content;
  const existing = await files.findFileByPath(ctx.sql, projectId, path);
  if (existing) return { ...(await replaceContent(ctx, ownerId, existing, bytes, expect)), created: false };

  await refusePathClash(ctx, projectId, path);
  await checkProjectLimits(ctx, projectId, null, bytes.length);
  const id = crypto.randomUUID();
  const { storageKey, sha256 } = await storeContent(ctx, bytes);
  try {
    const row = await files.insertFile(ctx.sql, { id, projectId, path, size: bytes.length, storageKey, sha256 });
    await touchProject(ctx.sql, projectId);
    const file = files.toPublicFile(row);
    await publishFileEvent(ctx, { type: "file.created", projectId, ownerId, file }, (sync) => sync.written(projectId, path, bytes));
    return { file, created: true, unexpected: null };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A file at ${path} was created at the same moment; try again.`);
    throw error;
  }
}

/** Refuses (409) a file where a folder of that path exists, or inside a path that is a file. */
async function refusePathClash(ctx: ServiceContext, projectId: string, path: string, renamedFrom?: string): Promise<void> {
  const clash = await files.findPathClash(ctx.sql, projectId, path, renamedFrom);
  if (!clash) return;
  throw clash.startsWith(`${path}/`)
    ? conflict(`${path} is a folder (it holds ${clash}); a file cannot have the same path as a folder.`)
    : conflict(`${clash} is a file, so ${path} cannot be created inside it as a folder.`);
}

/**
 * Refuses (413) a write that would take the project past its file count or total size (files and uploaded
 * images together). Exported for uploads, which add bytes but no file. Checked before the
 * write, so writes racing on several instances can overshoot by what they add together; the limits protect
 * the server from runaway growth, not to the byte.
 */
export async function checkProjectLimits(
  ctx: ServiceContext,
  projectId: string,
  replacedSize: number | null,
  newSize: number,
  options: { newFile: boolean } = { newFile: replacedSize === null },
): Promise<void> {
  const limits = ctx.config?.limits;
  if (!limits) return;
  const usage = await files.projectUsage(ctx.sql, projectId);
  if (options.newFile && usage.files >= limits.maxFilesPerProject) {
    throw tooLarge(`This project already has ${usage.files} files, the most a project may have (${limits.maxFilesPerProject}). Delete some files first.`);
  }
  const after = usage.bytes - (replacedSize ?? 0) + newSize;
  if (after > limits.maxProjectBytes) {
    throw tooLarge(
      `This write would bring the project to ${readableSize(after)}, over its limit of ${readableSize(limits.maxProjectBytes)}. Delete some files first.`,
    );
  }
}

const readableSize = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1048576).toFixed(1)} MB`;

async function replaceContent(
  ctx: ServiceContext,
  ownerId: string,
  current: { id: string; projectId: string; size: number },
  bytes: Uint8Array,
  expect: Expectation = {},
): Promise<{ file: ProjectFile; unexpected: Unexpected }> {
  const { id: fileId, projectId } = current;
  await checkProjectLimits(ctx, projectId, current.size, bytes.length);
  const { storageKey, sha256 } = await storeContent(ctx, bytes);
  const replaced = await files.replaceFileContent(ctx.sql, { id: fileId, size: bytes.length, storageKey, sha256 });
  if (!replaced) throw notFound("File");
  const unexpected = await unexpectedContent(ctx, replaced.previous, expect.expectedKey);
  if (replaced.previous.storageKey !== storageKey) {
    await releaseContent(ctx, replaced.previous.storageKey).catch((e) =>
      ctx.logger.warn("old file version not removed", { key: replaced.previous.storageKey, error: String(e) }),
    );
  }
  const file = files.toPublicFile(replaced.file);
  // The project's "updated" time goes beside the event, not before it: browsers hear of the save one query sooner.
  await Promise.all([
    touchProject(ctx.sql, projectId),
    publishFileEvent(ctx, { type: "file.updated", projectId, ownerId, file }, (sync) => sync.written(projectId, file.path, bytes)),
  ]);
  return { file, unexpected };
}

export async function saveFileContent(ctx: ServiceContext, access: ProjectAccess, fileId: string, content: string): Promise<ProjectFile> {
  const file = await getFileInProject(ctx, access, fileId);
  return (await replaceContent(ctx, access.ownerId, file, encodeContent(content))).file;
}

export async function readFileContent(ctx: ServiceContext, access: ProjectAccess, fileId: string): Promise<FileContent> {
  const file = await getFileInProject(ctx, access, fileId);
  const bytes = await ctx.store.get(file.storageKey);
  if (!bytes) throw notFound("File content");
  const text = asText(bytes);
  return { ...files.toPublicFile(file), content: text ?? "", binary: text === null };
}

export async function renameProjectFile(ctx: ServiceContext, access: ProjectAccess, fileId: string, newPath: string): Promise<ProjectFile> {
  const { ownerId } = access;
  const file = await getFileInProject(ctx, access, fileId);
  if (file.path === newPath) return files.toPublicFile(file);
  await refusePathClash(ctx, file.projectId, newPath, file.path);
  try {
    const renamed = await files.renameFile(ctx.sql, file.id, newPath);
    if (!renamed) throw notFound("File");
    await touchProject(ctx.sql, file.projectId);
    const publicFile = files.toPublicFile(renamed);
    await publishFileEvent(ctx, { type: "file.renamed", projectId: file.projectId, ownerId, file: publicFile, oldPath: file.path }, (sync) =>
      sync.renamed(file.projectId, file.path, newPath),
    );
    return publicFile;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A file already exists at ${newPath}.`);
    throw error;
  }
}

export async function deleteProjectFile(
  ctx: ServiceContext,
  access: ProjectAccess,
  fileId: string,
  expect: Expectation = {},
): Promise<{ file: ProjectFile; unexpected: Unexpected }> {
  const { ownerId } = access;
  const file = await getFileInProject(ctx, access, fileId);
  const unexpected = await ctx.sql.begin(async (tx) => {
    // Every query inside goes through the transaction (an embedded database has one connection).
    const inTx: ServiceContext = { ...ctx, sql: tx as unknown as typeof ctx.sql };
    const deleted = await files.deleteFileRow(inTx.sql, file.id);
    if (!deleted) throw notFound("File");
    // Kept (as a blob) before an old per-file object goes, and inside the transaction, so a failure leaves the file.
    const unexpected = await unexpectedContent(inTx, deleted, expect.expectedKey);
    await releaseContent(inTx, deleted.storageKey);
    return unexpected;
  });
  await touchProject(ctx.sql, file.projectId);
  const publicFile = files.toPublicFile(file);
  await publishFileEvent(ctx, { type: "file.deleted", projectId: file.projectId, ownerId, file: publicFile }, (sync) =>
    sync.removed(file.projectId, file.path),
  );
  return { file: publicFile, unexpected };
}
