/**
 * Whether the project's sandbox is alive: checked at once and then every 5 s while the project has a
 * sandboxId, in a hidden tab too. Each visit to the Preview checks again at once rather than
 * showing the last visit's answer. `data` is true, false (expired), or undefined before the first answer.
 */
import { useQuery } from "@tanstack/react-query";
import { checkSandboxValid } from "./check-sandbox-valid";
import { sandboxKeys } from "../../api/query-keys";

export const SANDBOX_VALIDITY_POLL_MS = 5_000;

export function useSandboxValidity(projectId: string, sandboxId: string | null | undefined) {
  return useQuery({
    queryKey: sandboxKeys.validity(projectId, sandboxId ?? ""),
    queryFn: () => checkSandboxValid(projectId),
    enabled: Boolean(projectId && sandboxId),
    refetchInterval: SANDBOX_VALIDITY_POLL_MS,
    refetchIntervalInBackground: true,
    refetchOnMount: "always",
  });
}
