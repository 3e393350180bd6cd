/** A project's chat history: GET /api/messages/{projectId}. */
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export function useMessages(projectId: string) {
  return useQuery({ ...queries.messages(projectId), enabled: Boolean(projectId) });
}
