/**
 * What the secret scan found in files browsers would get, when it stopped a publish: one line per finding
 * (file, line, rule, what), and "Publish anyway", which publishes again with `allowFindings` (the deployment
 * records that it went live with them).
 */
import type { ScanFinding } from "@shared/schemas/responses";
import { Button } from "../../components/ui/button";

export function ScanFindings({ findings, busy, onPublishAnyway }: { findings: ScanFinding[]; busy: boolean; onPublishAnyway: () => void }) {
  return (
    <div className="space-y-2" data-testid="scan-findings">
      <p>
        Found {findings.length === 1 ? "a secret" : `${findings.length} secrets`} in files that visitors' browsers would get. Move it to server code, or publish
        anyway if it is meant to be public.
      </p>
      <ul className="max-h-32 overflow-auto rounded-md bg-muted p-2 font-mono text-xs">
        {findings.map((f) => (
          <li key={`${f.file}:${f.line}:${f.rule}:${f.message}`}>
            {f.file}:{f.line} · {f.rule} · {f.message}
          </li>
        ))}
      </ul>
      <Button variant="destructive" size="sm" disabled={busy} onClick={onPublishAnyway} data-testid="publish-anyway">
        Publish anyway
      </Button>
    </div>
  );
}
