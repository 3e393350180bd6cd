/**
 * What a person does in Files: the file service's change, then the coalesced 'user' version of the project
 * (which never fails the edit it follows). The agent and the sandbox sync write through files.ts directly;
 * their versions are taken around the agent's run.
 *
 * @example
 * const file = await saveFileAsUser(ctx, access, fileId, "export const a = 2;\n");
 */
import type { ProjectFile } from "@shared/schemas/file";
import type { ProjectAccess } from "./access";
import type { ServiceContext } from "./context";
import * as files from "./files";
import { versionAfterUserEdit } from "./versions/hooks";

export async function writeFileAsUser(
  ctx: ServiceContext,
  access: ProjectAccess,
  path: string,
  content: string,
): Promise<{ file: ProjectFile; created: boolean }> {
  const { file, created } = await files.writeFileAtPath(ctx, access, path, content);
  await versionAfterUserEdit(ctx, file.projectId);
  return { file, created };
}

export async function saveFileAsUser(ctx: ServiceContext, access: ProjectAccess, fileId: string, content: string): Promise<ProjectFile> {
  const file = await files.saveFileContent(ctx, access, fileId, content);
  await versionAfterUserEdit(ctx, file.projectId);
  return file;
}

export async function renameFileAsUser(ctx: ServiceContext, access: ProjectAccess, fileId: string, newPath: string): Promise<ProjectFile> {
  const file = await files.renameProjectFile(ctx, access, fileId, newPath);
  await versionAfterUserEdit(ctx, file.projectId);
  return file;
}

export async function deleteFileAsUser(ctx: ServiceContext, access: ProjectAccess, fileId: string): Promise<ProjectFile> {
  const { file } = await files.deleteProjectFile(ctx, access, fileId);
  await versionAfterUserEdit(ctx, file.projectId);
  return file;
}
