/**
 * The versions API as the History feature calls it (`/api/projects/{id}/versions…`, `/api/projects/import`).
 * "current" in place of a version id names the project's files as they are now.
 */
import type { Project } from "@shared/schemas/project";
import type { RestoreResult, VersionDiff, VersionSummary } from "@shared/schemas/versions";
import { apiFetch, apiRequest } from "../../api/client";

export const CURRENT = "current";

const base = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/versions`;
const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

export const listVersions = (projectId: string, limit = 100) => apiFetch<VersionSummary[]>(`${base(projectId)}?limit=${limit}`);

export const saveVersion = (projectId: string, label: string) =>
  apiFetch<VersionSummary>(base(projectId), { method: "POST", body: { label } });

export const restoreVersion = (projectId: string, versionId: string) =>
  apiFetch<RestoreResult>(`${base(projectId)}/${encodeURIComponent(versionId)}/restore`, { method: "POST" });

export const diffVersions = (projectId: string, from: string, to: string, patch = false) =>
  apiFetch<VersionDiff>(`${base(projectId)}/${encodeURIComponent(from)}/diff/${encodeURIComponent(to)}${patch ? "?patch=1" : ""}`);

/** A file's text at a version ("" when it does not exist there, as for the empty side of an added file). */
export async function versionFileText(projectId: string, versionId: string, path: string): Promise<string> {
  try {
    const res = await apiRequest(`${base(projectId)}/${encodeURIComponent(versionId)}/files/${encodePath(path)}`, { headers: { Accept: "*/*" } });
    return await res.text();
  } catch (error) {
    if ((error as { status?: number }).status === 404) return "";
    throw error;
  }
}

export function importProjectZip(file: File, name?: string): Promise<Project> {
  const form = new FormData();
  form.append("file", file);
  if (name?.trim()) form.append("name", name.trim());
  return apiFetch<Project>("/api/projects/import", { method: "POST", body: form });
}
