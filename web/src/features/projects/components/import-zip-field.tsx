/**
 * "Import from ZIP" in the New Project dialog: picks a .zip for the dialog to import, and shows why the
 * server refused the last one. The dialog owns the upload, so closing it also clears the error.
 */
import { useRef } from "react";
import { Button } from "../../../components/ui/button";

type Props = { pending: boolean; disabled: boolean; error: string | null; onPick: (file: File) => void };

export function ImportZipField({ pending, disabled, error, onPick }: Props) {
  const input = useRef<HTMLInputElement>(null);

  return (
    <div className="space-y-2 border-t pt-4">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">Or start from a .zip of an existing project.</p>
        <input
          ref={input}
          type="file"
          accept=".zip,application/zip"
          aria-label="ZIP file to import"
          className="hidden"
          data-testid="import-zip-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            // Cleared so that picking the same file again (after fixing it) fires another change.
            e.target.value = "";
            if (file) onPick(file);
          }}
        />
        <Button variant="outline" onClick={() => input.current?.click()} disabled={disabled} className="shrink-0">
          {pending ? "Importing..." : "Import from ZIP"}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive" data-testid="import-zip-error">
          {error}
        </p>
      )}
    </div>
  );
}
