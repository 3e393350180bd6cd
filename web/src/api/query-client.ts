/**
 * The shared TanStack Query client. Data is fresh forever, never refetched on its own, never retried:
 * screens refresh explicitly (invalidate after a change, or polling where a screen watches something that
 * changes on the server), so nothing reloads behind the user's back. Each query brings its own query
 * function (api/queries.ts).
 */
import type { Project } from "@shared/schemas/project";
import { QueryClient } from "@tanstack/react-query";
import { projectKeys } from "./query-keys";

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
  keepProjectListInStep(client);
  return client;
}

/**
 * Whenever one project is fetched (a screen's own refetch, the wait for its sandbox), its card in the
 * cached project list takes the fresh copy, so /projects never shows an older sandbox id or time than the
 * project screens just did.
 */
function keepProjectListInStep(client: QueryClient): void {
  client.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.action.type !== "success") return;
    const key = event.query.queryKey;
    if (key.length !== 2 || key[0] !== projectKeys.all[0]) return;
    const fresh = event.query.state.data as Project | undefined;
    if (!fresh?.id) return;
    client.setQueryData<Project[] | null>(projectKeys.all, (list) =>
      list?.some((p) => p.id === fresh.id && (p.updatedAt !== fresh.updatedAt || p.sandboxId !== fresh.sandboxId))
        ? list.map((p) => (p.id === fresh.id ? fresh : p))
        : list,
    );
  });
}

export const queryClient = createQueryClient();
