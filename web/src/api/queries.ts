/**
 * The screens' queries, one `queryOptions({ queryKey, queryFn })` each: the key names the data (from the
 * one factory, api/query-keys.ts, which invalidations use too), the function calls the typed client
 * (api/endpoints.ts). A key is never read as a URL. Hooks spread these and add their own refresh settings.
 *
 * @example
 * const files = useQuery({ ...queries.files(projectId), refetchInterval: 5_000 });
 */
import type { DatabaseEnvironmentName as DatabaseEnv } from "@shared/schemas/database";
import { queryOptions } from "@tanstack/react-query";
import { ApiError } from "./api-error";
import { api } from "./endpoints";
import { adminKeys, databaseKeys, fileKeys, messageKeys, projectKeys, publishKeys, sandboxKeys, usageKeys, versionKeys } from "./query-keys";

/** No session: the project list reads a 401 as null, which the projects screen turns into a fresh sign-in. */
async function nullOn401<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export const queries = {
  projects: () => queryOptions({ queryKey: projectKeys.all, queryFn: ({ signal }) => nullOn401(api.projects.list({ signal })) }),
  sharedProjects: () => queryOptions({ queryKey: projectKeys.shared, queryFn: ({ signal }) => api.projects.shared({ signal }) }),
  project: (id: string) => queryOptions({ queryKey: projectKeys.detail(id), queryFn: ({ signal }) => api.projects.get(id, { signal }) }),
  messages: (projectId: string) => queryOptions({ queryKey: messageKeys.list(projectId), queryFn: ({ signal }) => api.messages.list(projectId, { signal }) }),
  files: (projectId: string) => queryOptions({ queryKey: fileKeys.list(projectId), queryFn: ({ signal }) => api.files.list(projectId, { signal }) }),
  fileContent: (projectId: string, fileId: string) =>
    queryOptions({ queryKey: fileKeys.content(projectId, fileId), queryFn: ({ signal }) => api.files.content(projectId, fileId, { signal }) }),
  sandboxUrl: (projectId: string) => queryOptions({ queryKey: sandboxKeys.url(projectId), queryFn: ({ signal }) => api.sandbox.url(projectId, { signal }) }),
  projectModel: (projectId: string) =>
    queryOptions({ queryKey: projectKeys.model(projectId), queryFn: ({ signal }) => api.projects.model(projectId, { signal }) }),
  contextUsage: (projectId: string) =>
    queryOptions({ queryKey: projectKeys.context(projectId), queryFn: ({ signal }) => api.projects.context(projectId, { signal }) }),
  me: () => queryOptions({ queryKey: adminKeys.me, queryFn: ({ signal }) => api.me({ signal }) }),
  adminUsers: () => queryOptions({ queryKey: adminKeys.users, queryFn: ({ signal }) => api.admin.users({ signal }) }),
  adminRunning: () => queryOptions({ queryKey: adminKeys.running, queryFn: ({ signal }) => api.admin.running({ signal }) }),
  adminSites: () => queryOptions({ queryKey: adminKeys.sites, queryFn: ({ signal }) => api.admin.sites({ signal }) }),
  tokenBudget: () => queryOptions({ queryKey: usageKeys.all, queryFn: ({ signal }) => api.usage({ signal }) }),
  site: (projectId: string) => queryOptions({ queryKey: publishKeys.site(projectId), queryFn: ({ signal }) => api.publish.site(projectId, { signal }) }),
  deployments: (projectId: string) =>
    queryOptions({ queryKey: publishKeys.deployments(projectId), queryFn: ({ signal }) => api.publish.deployments(projectId, { signal }) }),
  liveSites: () => queryOptions({ queryKey: publishKeys.liveSites, queryFn: ({ signal }) => api.publish.liveSites({ signal }) }),
  /** The newest versions (one full page): enough for History and for finding a run's versions. */
  versions: (projectId: string) => queryOptions({ queryKey: versionKeys.list(projectId), queryFn: ({ signal }) => api.versions.list(projectId, { signal }) }),
  versionDiff: (projectId: string, from: string, to: string) =>
    queryOptions({ queryKey: versionKeys.diff(projectId, from, to), queryFn: ({ signal }) => api.versions.diff(projectId, from, to, { signal }) }),
  /** One file's text at a version; a null path is a side of a diff where the file does not exist (empty, nothing fetched). */
  versionFile: (projectId: string, versionId: string, path: string | null) =>
    queryOptions({
      queryKey: versionKeys.file(projectId, versionId, path ?? ""),
      queryFn: ({ signal }) => (path === null ? { text: "" } : api.versions.fileText(projectId, versionId, path, { signal })),
    }),
  problems: (projectId: string) =>
    queryOptions({ queryKey: sandboxKeys.problems(projectId), queryFn: ({ signal }) => api.sandbox.problems(projectId, { signal }) }),
  processes: (projectId: string) =>
    queryOptions({ queryKey: sandboxKeys.processes(projectId), queryFn: ({ signal }) => api.processes.list(projectId, { signal }) }),
  database: (projectId: string, env: DatabaseEnv = "development") =>
    queryOptions({ queryKey: databaseKeys.env(projectId, env), queryFn: ({ signal }) => api.database.info(projectId, env, { signal }) }),
  tableRows: (projectId: string, table: string, page: { limit: number; offset: number; order?: string }, env: DatabaseEnv = "development") =>
    queryOptions({
      queryKey: databaseKeys.rows(projectId, table, page, env),
      queryFn: ({ signal }) => api.database.rows(projectId, table, page, env, { signal }),
    }),
  git: (projectId: string) => queryOptions({ queryKey: projectKeys.git(projectId), queryFn: ({ signal }) => api.git.status(projectId, { signal }) }),
  members: (projectId: string) => queryOptions({ queryKey: projectKeys.members(projectId), queryFn: ({ signal }) => api.members.list(projectId, { signal }) }),
  activity: (projectId: string) =>
    queryOptions({ queryKey: projectKeys.activity(projectId), queryFn: ({ signal }) => api.members.activity(projectId, { signal }) }),
  secrets: (projectId: string) => queryOptions({ queryKey: projectKeys.secrets(projectId), queryFn: ({ signal }) => api.secrets.list(projectId, { signal }) }),
  shareLinks: (projectId: string) =>
    queryOptions({ queryKey: projectKeys.shareLinks(projectId), queryFn: ({ signal }) => api.shareLinks.list(projectId, { signal }) }),
};
