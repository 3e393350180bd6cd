/**
 * Start the project's run command in its sandbox (POST /api/sandbox/{id}/run-workflow). Without a
 * configured command nothing is sent.
 */
import { useMutation } from "@tanstack/react-query";
import { describeError } from "../../api/api-error";
import { api } from "../../api/endpoints";
import { toast } from "../../components/ui/use-toast";

export class NoWorkflowCommandError extends Error {
  constructor() {
    super("The AI hasn't configured a run command yet");
  }
}

export function useRunWorkflow(projectId: string, workflowCommand: string | null | undefined) {
  return useMutation({
    mutationFn: async () => {
      if (!workflowCommand) throw new NoWorkflowCommandError();
      return api.sandbox.runWorkflow(projectId);
    },
    onSuccess: (answer) => {
      toast({ title: "Command started", description: answer.workflowCommand });
    },
    onError: (err) => {
      if (err instanceof NoWorkflowCommandError) {
        toast({ title: "No command configured", description: err.message, variant: "destructive" });
      } else {
        toast({ title: "Failed to run command", description: describeError(err), variant: "destructive" });
      }
    },
  });
}
