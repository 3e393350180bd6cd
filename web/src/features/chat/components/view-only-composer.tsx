/** Where a viewer would type: the composer, switched off, saying why (the API's 403 says the same). */
import { VIEW_ONLY } from "../../team/use-project-role";

export function ViewOnlyComposer() {
  return (
    <div className="rounded-2xl border bg-muted/40 shadow-sm" data-testid="chat-composer" aria-disabled="true">
      <label htmlFor="chat-input" className="sr-only">
        Message
      </label>
      <textarea
        id="chat-input"
        rows={1}
        disabled
        placeholder={VIEW_ONLY}
        data-testid="chat-input"
        className="block w-full resize-none bg-transparent px-4 pt-3 pb-2 text-sm leading-6 placeholder:text-muted-foreground"
      />
      <p className="px-4 pb-3 text-xs text-muted-foreground" data-testid="view-only-note">
        {VIEW_ONLY} Ask its owner to make you an editor to send messages.
      </p>
    </div>
  );
}
