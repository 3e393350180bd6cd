/**
 * What a person does in Files: the file service's change, then the coalesced 'user' version of the project
 * (which never fails the edit it follows). The agent and the sandbox sync write through files.ts directly;
 * their versions are taken around the agent's run.
 *
 * @example
 * const file = await saveFileAsUser(ctx, uid, fileId, "export const a = 2;\n");
 */
import type { ProjectFile } from "@shared/schemas/file";
import type { ServiceContext } from "./context";
import * as files from "./files";
import { versionAfterUserEdit } from "./versions/hooks";

export async function writeFileAsUser(
  ctx: ServiceContext,
  ownerId: string,
  projectId: string,
  path: string,
  content: string,
): Promise<{ file: ProjectFile; created: boolean }> {
  const { file, created } = await files.writeFileAtPath(ctx, ownerId, projectId, path, content);
  await versionAfterUserEdit(ctx, file.projectId);
  return { file, created };
}

export async function saveFileAsUser(ctx: ServiceContext, ownerId: string, fileId: string, content: string): Promise<ProjectFile> {
  const file = await files.saveFileContent(ctx, ownerId, fileId, content);
  await versionAfterUserEdit(ctx, file.projectId);
  return file;
}

export async function renameFileAsUser(ctx: ServiceContext, ownerId: string, fileId: string, newPath: string): Promise<ProjectFile> {
  const file = await files.renameProjectFile(ctx, ownerId, fileId, newPath);
  await versionAfterUserEdit(ctx, file.projectId);
  return file;
}

export async function deleteFileAsUser(ctx: ServiceContext, ownerId: string, fileId: string): Promise<ProjectFile> {
  const { file } = await files.deleteProjectFile(ctx, ownerId, fileId);
  await versionAfterUserEdit(ctx, file.projectId);
  return file;
}
