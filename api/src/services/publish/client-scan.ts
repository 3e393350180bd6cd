/**
 * The publish flow's last check before a deployment goes live: the files browsers will get are scanned for the
 * project's secret values and for credentials (scan-client-files.ts). A finding fails the publish, naming each
 * file and rule, unless it was started with `allowFindings`; either way the findings are kept on the
 * deployment (`scan_findings`, and `findings_allowed` when it went live with them), so the list shows them.
 *
 * @example
 * await checkClientFiles(deps, { projectId, deploymentId, allowFindings: false }, files, log); // throws FindingsError
 */
import { blobKey } from "../../db/blobs";
import { recordFindings } from "../../db/deployments";
import type { Manifest } from "../../db/versions";
import type { ServiceContext } from "../context";
import type { ProjectSecretsService } from "../secrets";
import { forEachLimit } from "../versions/project-lock";
import type { BuildLog } from "./build-log";
import { OutputError } from "./build-output";
import { type ClientFile, describeFinding, type ScanFinding, scanClientFiles } from "./scan-client-files";

export type ClientScanDeps = ServiceContext & { secrets: Pick<ProjectSecretsService, "values"> };

/** A publish refused by the scan: an OutputError, so the flow reports it like a bad build output. */
export class FindingsError extends OutputError {
  constructor(readonly findings: ScanFinding[]) {
    const lines = findings.map((f) => `  ${describeFinding(f)}`).join("\n");
    super(
      `Found ${findings.length === 1 ? "a secret" : `${findings.length} secrets`} in files that browsers would get; nothing was published:\n${lines}\n` +
        "Move the secret to server code, or publish anyway if it is meant to be public.",
    );
  }
}

/** The deployment's files with their bytes: the build output as read, or a static site's blobs from the store. */
async function contentsOf(ctx: ServiceContext, files: ClientFile[] | Manifest): Promise<ClientFile[]> {
  if (Array.isArray(files)) return files;
  const out: ClientFile[] = [];
  await forEachLimit(Object.entries(files), 8, async ([path, [sha256]]) => {
    const bytes = await ctx.store.get(blobKey(sha256));
    if (bytes) out.push({ path, bytes });
  });
  return out;
}

export async function checkClientFiles(
  deps: ClientScanDeps,
  d: { projectId: string; deploymentId: string; allowFindings: boolean },
  files: ClientFile[] | Manifest,
  log: BuildLog,
): Promise<void> {
  const started = performance.now();
  const [contents, secrets] = await Promise.all([contentsOf(deps, files), deps.secrets.values(d.projectId)]);
  const findings = await scanClientFiles(contents, secrets);
  const took = `${Math.round(performance.now() - started)} ms`;
  if (findings.length === 0) {
    log.write(`Scanned ${contents.length} file${contents.length === 1 ? "" : "s"} for secrets: none found (${took}).\n`);
    return;
  }
  await recordFindings(deps.sql, d.deploymentId, findings, d.allowFindings);
  if (!d.allowFindings) throw new FindingsError(findings);
  log.write(`Publishing anyway, as asked, with ${findings.length} finding${findings.length === 1 ? "" : "s"} of the secret scan:\n`);
  for (const f of findings) log.write(`  ${describeFinding(f)}\n`);
}
