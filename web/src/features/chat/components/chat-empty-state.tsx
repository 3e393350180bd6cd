/** A chat with no messages shows 'New chat with Agent', with a few prompts to start from. */
import { SUGGESTIONS } from "../../start/suggestions";
import { BotIcon } from "./icons";

export function ChatEmptyState({ onPick }: { onPick: (prompt: string) => void }) {
  return (
    <div data-testid="chat-empty" className="flex flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <span className="mb-4 inline-flex size-12 items-center justify-center rounded-2xl bg-primary/10 text-primary">
        <BotIcon className="size-6" />
      </span>
      <h2 className="text-xl font-semibold tracking-tight">New chat with Agent</h2>
      <p className="mt-2 max-w-md text-sm text-muted-foreground">
        Describe the app you want. The agent writes the files, runs them in the project's sandbox and shows each step here.
      </p>
      <div className="mt-6 flex max-w-xl flex-wrap justify-center gap-2">
        {SUGGESTIONS.map((s) => (
          <button
            key={s}
            type="button"
            onClick={() => onPick(s)}
            className="rounded-full border px-3 py-1.5 text-xs text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            {s}
          </button>
        ))}
      </div>
    </div>
  );
}
