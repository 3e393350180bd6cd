/**
 * The URL a preview frame loads: `frameUrl` by way of its host's enter URL (enter-preview.ts), asked for again
 * whenever `frameUrl` changes (a refresh, a recreated sandbox), since a ticket lasts a minute. Null while the
 * ticket is on its way.
 */
import { useEffect, useState } from "react";
import { enteredPreviewUrl } from "./enter-preview";

export function useEnteredPreview(projectId: string, frameUrl: string | null): string | null {
  const [entered, setEntered] = useState<{ for: string; src: string } | null>(null);
  useEffect(() => {
    if (!frameUrl) return;
    const abort = new AbortController();
    enteredPreviewUrl(projectId, frameUrl, abort.signal).then(
      (src) => setEntered({ for: frameUrl, src }),
      () => {},
    );
    return () => abort.abort();
  }, [projectId, frameUrl]);
  return frameUrl && entered?.for === frameUrl ? entered.src : null;
}
