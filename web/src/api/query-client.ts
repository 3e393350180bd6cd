/**
 * The shared TanStack Query client. Spec §9: data is fresh forever, never refetched on its own, never
 * retried; screens refresh explicitly (invalidate, or polling where the spec asks for it).
 */
import { QueryClient } from "@tanstack/react-query";

export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}

export const queryClient = createQueryClient();
