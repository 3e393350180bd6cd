/**
 * While a loaded project has no sandbox yet (the agent creates one on its first command), refetch it every
 * 5 s so the Preview and Terminal views move on by themselves once it exists.
 */
import type { Project } from "@shared/schemas/project";
import type { UseQueryResult } from "@tanstack/react-query";
import { useEffect } from "react";

export const SANDBOX_WAIT_POLL_MS = 5_000;

export function usePollUntilSandbox(project: UseQueryResult<Project>): void {
  const waiting = project.isSuccess && !project.data.sandboxId;
  const { refetch } = project;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void refetch(), SANDBOX_WAIT_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, refetch]);
}
