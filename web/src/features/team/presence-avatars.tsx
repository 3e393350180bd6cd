/** The chat header's row of who else has the project open: initials (or their photo), name on hover. */
import { initials } from "@shared/events/team-events";
import { Tooltip } from "../../components/ui/tooltip";
import { usePresence } from "./use-presence";

/** More than this and the rest are a "+N". */
const SHOWN = 4;

export function PresenceAvatars({ projectId }: { projectId: string }) {
  const people = usePresence(projectId);
  if (people.length === 0) return null;
  const rest = people.length - SHOWN;
  return (
    <ul className="mr-auto flex items-center -space-x-2" aria-label="Also here" data-testid="presence">
      {people.slice(0, SHOWN).map((p) => (
        <li key={p.id}>
          <Tooltip content={`${p.name} is here`} side="bottom">
            <span
              className="inline-flex size-7 items-center justify-center overflow-hidden rounded-full border-2 border-background bg-primary/15 text-xs font-semibold text-primary"
              aria-label={p.name}
              data-testid="presence-avatar"
            >
              {p.picture ? <img src={p.picture} alt="" className="size-full object-cover" referrerPolicy="no-referrer" /> : initials(p.name)}
            </span>
          </Tooltip>
        </li>
      ))}
      {rest > 0 && (
        <li className="inline-flex size-7 items-center justify-center rounded-full border-2 border-background bg-muted text-xs" aria-label={`${rest} more`}>
          +{rest}
        </li>
      )}
    </ul>
  );
}
