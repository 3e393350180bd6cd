/**
 * What the chat shows about tokens beside the composer: how full the model's context window is
 * (GET /api/projects/{id}/context) and the caller's monthly budget (GET /api/usage). Both are refetched
 * when a run ends (use-chat-session invalidates them).
 */
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export function useTokenMeters(projectId: string) {
  const context = useQuery({ ...queries.contextUsage(projectId), enabled: Boolean(projectId) });
  const budget = useQuery(queries.tokenBudget());
  return { context: context.data ?? null, budget: budget.data ?? null };
}
