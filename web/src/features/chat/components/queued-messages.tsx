/** The messages waiting for the run to end, above the composer: each marked Queued, with Cancel. */
import type { QueuedMessage } from "../use-queued-messages";
import { XIcon } from "./icons";

export function QueuedMessages({ queue, onCancel }: { queue: QueuedMessage[]; onCancel: (id: string) => void }) {
  if (!queue.length) return null;
  return (
    <ul className="mb-2 space-y-1.5" aria-label="Queued messages">
      {queue.map((m) => (
        <li key={m.id} data-testid="queued-message" className="flex items-center gap-2 rounded-xl border border-dashed bg-card/80 px-3 py-2 text-sm">
          <span className="shrink-0 rounded-full bg-muted px-2 py-0.5 text-[11px] font-medium text-muted-foreground">Queued</span>
          <span className="min-w-0 flex-1 truncate" title={m.text}>
            {m.text || `${m.attachments.length} image${m.attachments.length === 1 ? "" : "s"}`}
          </span>
          <span className="hidden shrink-0 text-xs text-muted-foreground sm:inline">sent when the agent finishes</span>
          <button
            type="button"
            onClick={() => onCancel(m.id)}
            aria-label="Cancel queued message"
            data-testid="cancel-queued"
            className="inline-flex size-6 shrink-0 items-center justify-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <XIcon className="size-3.5" />
          </button>
        </li>
      ))}
    </ul>
  );
}
