/**
 * The Publish dialog's own domains: the list, and add / verify / remove, each refreshing the list. A verify
 * that finds no record fails with the server's words (what was looked up, where, and what was found).
 *
 * @example
 * const domains = useDomains(projectId, open);
 * const add = useAddDomain(projectId);
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { domainKeys } from "../../api/query-keys";

export const useDomains = (projectId: string, enabled = true) =>
  useQuery({ queryKey: domainKeys.list(projectId), queryFn: ({ signal }) => api.domains.list(projectId, { signal }), enabled });

function useDomainMutation<T>(projectId: string, fn: (domain: string) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: domainKeys.list(projectId) }) });
}

export const useAddDomain = (projectId: string) => useDomainMutation(projectId, (domain) => api.domains.add(projectId, domain));
export const useVerifyDomain = (projectId: string) => useDomainMutation(projectId, (domain) => api.domains.verify(projectId, domain));
export const useRemoveDomain = (projectId: string) => useDomainMutation(projectId, (domain) => api.domains.remove(projectId, domain));
