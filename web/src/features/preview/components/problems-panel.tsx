/**
 * The Preview's Problems panel: what the running app showed (errors in the page, the dev server's and
 * compiler's errors), each with its source, place and count, and "Fix with AI" for one or all of them,
 * which sends the chat a message quoting them and opens the chat to watch the agent work.
 */
import type { Problem, ProblemSource } from "@shared/schemas/problems";
import { useLocation } from "wouter";
import { Button } from "../../../components/ui/button";
import { cn } from "../../../lib/cn";
import { sendToChat } from "../../chat/chat-outbox";
import { projectPath } from "../../projects/project-views";
import { fixPrompt, problemPlace } from "../problem-prompt";
import { useProblems } from "../use-problems";

const SOURCE_STYLE: Record<ProblemSource, string> = {
  browser: "bg-red-500/15 text-red-600 dark:text-red-400",
  server: "bg-amber-500/15 text-amber-700 dark:text-amber-400",
  build: "bg-violet-500/15 text-violet-700 dark:text-violet-400",
};

function ProblemRow({ problem, onFix }: { problem: Problem; onFix: () => void }) {
  const place = problemPlace(problem);
  return (
    <li data-testid="problem-row" data-source={problem.source} className="flex items-start gap-3 px-3 py-2">
      <span className={cn("mt-0.5 shrink-0 rounded px-1.5 py-0.5 text-[11px] font-medium uppercase", SOURCE_STYLE[problem.source])}>{problem.source}</span>
      <div className="min-w-0 flex-1">
        <p className="line-clamp-2 break-words font-mono text-xs" title={problem.detail ?? problem.message}>
          {problem.message}
        </p>
        <p className="mt-0.5 flex gap-3 text-xs text-muted-foreground">
          {place && <span data-testid="problem-place">{place}</span>}
          {problem.count > 1 && <span aria-label={`seen ${problem.count} times`}>×{problem.count}</span>}
          {problem.foundByCheck && (
            <span data-testid="found-by-check" title="The agent's check ran the page in a browser of the server's and saw this there, not in your preview.">
              found by the agent's check
            </span>
          )}
        </p>
      </div>
      <Button variant="outline" size="sm" className="h-7 shrink-0 px-2 text-xs" onClick={onFix} data-testid="fix-with-ai">
        Fix with AI
      </Button>
    </li>
  );
}

export function ProblemsPanel({ projectId }: { projectId: string }) {
  const { problems, clear } = useProblems(projectId);
  const [, navigate] = useLocation();

  const fix = (list: Problem[]) => {
    // The chat is opened to watch the agent work; it sends the message itself, as if typed.
    void sendToChat(projectId, fixPrompt(list), { openChat: () => navigate(projectPath(projectId, "chat")) });
  };

  return (
    <section aria-label="Problems" data-testid="problems-panel" className="shrink-0 rounded-xl border bg-card text-sm shadow-sm">
      <header className="flex items-center justify-between gap-2 border-b px-3 py-2">
        <h2 className="flex items-center gap-2 font-medium">
          Problems
          <span
            data-testid="problem-count"
            className={cn("rounded-full px-2 text-xs", problems.length ? "bg-destructive/15 text-destructive" : "bg-muted text-muted-foreground")}
          >
            {problems.length}
          </span>
        </h2>
        {problems.length > 0 && (
          <div className="flex gap-2">
            <Button variant="ghost" size="sm" className="h-7 px-2 text-xs" onClick={() => clear.mutate()} disabled={clear.isPending}>
              Clear
            </Button>
            <Button size="sm" className="h-7 px-2 text-xs" onClick={() => fix(problems)} data-testid="fix-all-with-ai">
              Fix all with AI
            </Button>
          </div>
        )}
      </header>
      {problems.length === 0 ? (
        <p className="px-3 py-2 text-xs text-muted-foreground">No problems seen in the running app.</p>
      ) : (
        <ul className="max-h-56 divide-y overflow-y-auto">
          {problems.map((p) => (
            <ProblemRow key={p.id} problem={p} onFix={() => fix([p])} />
          ))}
        </ul>
      )}
    </section>
  );
}
