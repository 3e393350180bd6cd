/** The signed-in user's avatar: their photo, else the first letter of their name, else "U". */
import { useState } from "react";
import { cn } from "../../lib/cn";

export function avatarLetter(displayName: string | null | undefined): string {
  const first = displayName?.trim().charAt(0);
  return first ? first.toUpperCase() : "U";
}

export function UserAvatar({ photoURL, displayName, className }: { photoURL: string | null; displayName: string | null; className?: string }) {
  // A photo that fails to load (offline, revoked) falls back to the letter rather than a broken image.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const showPhoto = Boolean(photoURL) && failedUrl !== photoURL;
  return (
    <span
      data-testid="user-avatar"
      className={cn(
        "inline-flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-primary/15 text-sm font-semibold text-primary",
        className,
      )}
    >
      {showPhoto && photoURL ? (
        <img src={photoURL} alt="" referrerPolicy="no-referrer" className="size-full object-cover" onError={() => setFailedUrl(photoURL)} />
      ) : (
        <span aria-hidden>{avatarLetter(displayName)}</span>
      )}
    </span>
  );
}
