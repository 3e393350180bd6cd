/**
 * Project files: metadata rows in `files`, contents in the object store. Each content version has its own
 * key, and rows only ever point at content that is fully written, so a failure on either side leaves no
 * row without content and no content without a row:
 * - write: put the new object, then insert/update the row; if the row fails, delete the new object.
 * - delete: inside a transaction, delete the row and then the object; if the object delete fails, roll back.
 * - rename: the row alone (keys do not contain the path).
 * Writes (API, agent and sandbox sync alike) also keep each project within MAX_FILES_PER_PROJECT and
 * MAX_PROJECT_BYTES (413). Each change is also handed, bytes and all, to the project's sandbox on this
 * instance (`ctx.sandboxSync`), awaited, so a command run right after the write sees it.
 */
import { MAX_FILE_CONTENT_BYTES, type FileContent, type ProjectFile } from "@shared/schemas/file";
import * as files from "../db/files";
import { touchProject } from "../db/projects";
import { conflict, notFound, tooLarge } from "../lib/errors";
import { isUuid, projectPrefix, publishFileEvent, type ServiceContext } from "./context";
import { asText } from "./file-content";
import { getOwnedProject } from "./projects";

const encoder = new TextEncoder();
const contentKey = (projectId: string, fileId: string) => `${projectPrefix(projectId)}files/${fileId}/${crypto.randomUUID()}`;
const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === "23505";

export async function listProjectFiles(ctx: ServiceContext, ownerId: string, projectId: string): Promise<ProjectFile[]> {
  await getOwnedProject(ctx, ownerId, projectId);
  return listFilesInProject(ctx, projectId);
}

// The *InProject functions are for callers that checked the project's ownership already: an agent run
// checks once, at its start, rather than on every tool call.

export async function listFilesInProject(ctx: ServiceContext, projectId: string): Promise<ProjectFile[]> {
  return (await files.listFiles(ctx.sql, projectId)).map(files.toPublicFile);
}

/** The file at `path` with its content (empty and `binary` for a binary file), or null when there is none. */
export async function readFileInProject(ctx: ServiceContext, projectId: string, path: string): Promise<FileContent | null> {
  const file = await files.findFileByPath(ctx.sql, projectId, path);
  if (!file) return null;
  const bytes = await ctx.store.get(file.storageKey);
  if (!bytes) throw notFound("File content");
  const text = asText(bytes);
  return { ...files.toPublicFile(file), content: text ?? "", binary: text === null };
}

async function getOwnedFile(ctx: ServiceContext, ownerId: string, fileId: string) {
  const file = isUuid(fileId) ? await files.findOwnedFile(ctx.sql, ownerId, fileId) : null;
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

/** Creates the file, or replaces its content when the path exists. `created` says which happened. */
export async function writeFileAtPath(
  ctx: ServiceContext,
  ownerId: string,
  projectId: string,
  path: string,
  content: string | Uint8Array,
): Promise<{ file: ProjectFile; created: boolean }> {
  await getOwnedProject(ctx, ownerId, projectId);
  return writeFileInProject(ctx, ownerId, projectId, path, content);
}

export async function writeFileInProject(
  ctx: ServiceContext,
  ownerId: string,
  projectId: string,
  path: string,
  content: string | Uint8Array,
): Promise<{ file: ProjectFile; created: boolean }> {
  const bytes = typeof content === "string" ? encodeContent(content) : content;
  const existing = await files.findFileByPath(ctx.sql, projectId, path);
  if (existing) return { file: await replaceContent(ctx, ownerId, existing, bytes), created: false };

  await refusePathClash(ctx, projectId, path);
  await checkProjectLimits(ctx, projectId, null, bytes.length);
  const id = crypto.randomUUID();
  const storageKey = contentKey(projectId, id);
  await ctx.store.put(storageKey, bytes);
  try {
    const row = await files.insertFile(ctx.sql, { id, projectId, path, size: bytes.length, storageKey });
    await touchProject(ctx.sql, projectId);
    const file = files.toPublicFile(row);
    await publishFileEvent(ctx, { type: "file.created", projectId, ownerId, file }, (sync) => sync.written(projectId, path, bytes));
    return { file, created: true };
  } catch (error) {
    await ctx.store.delete(storageKey).catch((e) => ctx.logger.warn("orphan object left after failed insert", { storageKey, error: String(e) }));
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
    throw tooLarge(`This write would bring the project to ${readableSize(after)}, over its limit of ${readableSize(limits.maxProjectBytes)}. Delete some files first.`);
  }
}

const readableSize = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1048576).toFixed(1)} MB`;

async function replaceContent(ctx: ServiceContext, ownerId: string, current: { id: string; projectId: string; size: number }, bytes: Uint8Array): Promise<ProjectFile> {
  const { id: fileId, projectId } = current;
  await checkProjectLimits(ctx, projectId, current.size, bytes.length);
  const storageKey = contentKey(projectId, fileId);
  await ctx.store.put(storageKey, bytes);
  let replaced;
  try {
    replaced = await files.replaceFileContent(ctx.sql, { id: fileId, size: bytes.length, storageKey });
  } catch (error) {
    await ctx.store.delete(storageKey).catch(() => {});
    throw error;
  }
  if (!replaced) {
    await ctx.store.delete(storageKey).catch(() => {});
    throw notFound("File");
  }
  await ctx.store
    .delete(replaced.previousKey)
    .catch((e) => ctx.logger.warn("old file version not removed", { key: replaced.previousKey, error: String(e) }));
  await touchProject(ctx.sql, projectId);
  const file = files.toPublicFile(replaced.file);
  await publishFileEvent(ctx, { type: "file.updated", projectId, ownerId, file }, (sync) => sync.written(projectId, file.path, bytes));
  return file;
}

export async function saveFileContent(ctx: ServiceContext, ownerId: string, fileId: string, content: string): Promise<ProjectFile> {
  const file = await getOwnedFile(ctx, ownerId, fileId);
  return replaceContent(ctx, ownerId, file, encodeContent(content));
}

export async function readFileContent(ctx: ServiceContext, ownerId: string, projectId: string, fileId: string): Promise<FileContent> {
  await getOwnedProject(ctx, ownerId, projectId);
  const file = await getOwnedFile(ctx, ownerId, fileId);
  if (file.projectId !== projectId) throw notFound("File");
  const bytes = await ctx.store.get(file.storageKey);
  if (!bytes) throw notFound("File content");
  const text = asText(bytes);
  return { ...files.toPublicFile(file), content: text ?? "", binary: text === null };
}

export async function renameProjectFile(ctx: ServiceContext, ownerId: string, fileId: string, newPath: string): Promise<ProjectFile> {
  const file = await getOwnedFile(ctx, ownerId, fileId);
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

export async function deleteProjectFile(ctx: ServiceContext, ownerId: string, fileId: string): Promise<ProjectFile> {
  const file = await getOwnedFile(ctx, ownerId, fileId);
  await ctx.sql.begin(async (tx) => {
    const deleted = await files.deleteFileRow(tx as unknown as typeof ctx.sql, file.id);
    if (!deleted) throw notFound("File");
    await ctx.store.delete(deleted.storageKey);
  });
  await touchProject(ctx.sql, file.projectId);
  const publicFile = files.toPublicFile(file);
  await publishFileEvent(ctx, { type: "file.deleted", projectId: file.projectId, ownerId, file: publicFile }, (sync) => sync.removed(file.projectId, file.path));
  return publicFile;
}
