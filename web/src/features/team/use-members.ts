/**
 * A project's people and what the owner does with them: invite, change a role, remove, hand the project over;
 * and what anyone in it may do: leave. Each change refetches the list; the server's refusal is the error.
 */
import type { InviteMember, MemberRole } from "@shared/schemas/members";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { queries } from "../../api/queries";
import { projectKeys } from "../../api/query-keys";

export function useMembers(projectId: string) {
  const queryClient = useQueryClient();
  const list = useQuery(queries.members(projectId));
  const settled = () => queryClient.invalidateQueries({ queryKey: projectKeys.members(projectId) });
  const invite = useMutation({ mutationFn: (body: InviteMember) => api.members.invite(projectId, body), onSettled: settled });
  const setRole = useMutation({
    mutationFn: ({ email, role }: { email: string; role: MemberRole }) => api.members.setRole(projectId, email, role),
    onSettled: settled,
  });
  const remove = useMutation({ mutationFn: (email: string) => api.members.remove(projectId, email), onSettled: settled });
  const transfer = useMutation({
    mutationFn: (email: string) => api.members.transfer(projectId, email),
    // My role changed too (owner → editor): the project's detail says so.
    onSettled: () => Promise.all([settled(), queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectId) })]),
  });
  return { list, invite, setRole, remove, transfer };
}

/** Leaving a project: deleting my own membership; the project drops out of my lists. */
export function useLeaveProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, email }: { projectId: string; email: string }) => api.members.remove(projectId, email),
    onSuccess: (_, { projectId }) => {
      queryClient.removeQueries({ queryKey: projectKeys.detail(projectId) });
      return queryClient.invalidateQueries({ queryKey: projectKeys.shared });
    },
  });
}
