/**
 * The admin page's data: whether the caller is an admin (`GET /api/me`, which the sidebar's link and the page
 * both ask), the three lists (refreshed every 10 s, since runs and sandboxes come and go), and its actions,
 * each followed by a refresh of the lists and a toast saying what happened.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { describeError } from "../../api/api-error";
import { api } from "../../api/endpoints";
import { queries } from "../../api/queries";
import { adminKeys } from "../../api/query-keys";
import { toast } from "../../components/ui/use-toast";

const REFRESH_MS = 10_000;

/** `admin` is false while unknown: the link stays hidden and the page waits on `loading`. */
export function useIsAdmin(): { admin: boolean; loading: boolean } {
  const me = useQuery({ ...queries.me(), staleTime: 5 * 60_000, retry: false });
  return { admin: me.data?.admin === true, loading: me.isPending };
}

export const useAdminUsers = () => useQuery({ ...queries.adminUsers(), refetchInterval: REFRESH_MS });
export const useAdminRunning = () => useQuery({ ...queries.adminRunning(), refetchInterval: REFRESH_MS });
export const useAdminSites = () => useQuery({ ...queries.adminSites(), refetchInterval: REFRESH_MS });

export type AdminAction =
  | { kind: "disable"; userId: string; label: string }
  | { kind: "enable"; userId: string; label: string }
  | { kind: "stopRun"; projectId: string; label: string }
  | { kind: "stopSandbox"; projectId: string; label: string };

const run = (a: AdminAction) =>
  a.kind === "disable"
    ? api.admin.disable(a.userId)
    : a.kind === "enable"
      ? api.admin.enable(a.userId)
      : a.kind === "stopRun"
        ? api.admin.stopRun(a.projectId)
        : api.admin.stopSandbox(a.projectId);

const DONE: Record<AdminAction["kind"], string> = {
  disable: "User disabled",
  enable: "User enabled",
  stopRun: "Answer stopped",
  stopSandbox: "Sandbox stopped",
};

export function useAdminAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (_, action) => toast({ title: DONE[action.kind], description: action.label }),
    onError: (err) => toast({ title: "That did not work", description: describeError(err), variant: "destructive" }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
