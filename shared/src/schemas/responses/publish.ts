/**
 * Publishing: deployments and their scan findings and logs, the site's state, live sites and a project's own
 * domains.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";

export const deploymentStatusSchema = z.enum(["building", "live", "failed", "superseded"]);
export type DeploymentStatus = z.infer<typeof deploymentStatusSchema>;
/** One thing the pre-publish scan found: a project secret's value or a credential, in a file browsers get. */
export const scanFindingSchema = z.object({
  file: z.string(),
  /** `project-secret` (a value of the project's secrets, named in `message`) or a secretlint rule id. */
  rule: z.string(),
  line: z.number(),
  message: z.string(),
});
export type ScanFinding = z.infer<typeof scanFindingSchema>;
export const deploymentSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  status: deploymentStatusSchema,
  url: z.string(),
  versionId: z.nullable(z.string()),
  bytes: z.number(),
  buildLog: z.optional(z.string()),
  /** What the scan of the files that reach browsers found: why a failed build was refused, or what went live allowed. */
  findings: z.optional(z.array(scanFindingSchema)),
  /** Published with `allowFindings`: these findings went live on purpose. */
  findingsAllowed: z.optional(z.boolean()),
});
export type Deployment = z.infer<typeof deploymentSchema>;
export const deploymentListSchema = z.array(deploymentSchema);
/** GET /api/projects/{id}/deployments/{deploymentId}/logs: the last 1,000 lines. */
export const deploymentLogsSchema = z.object({ lines: z.array(z.string()) });
export const publishResultSchema = z.object({ deploymentId: z.string(), url: z.string(), status: deploymentStatusSchema });
export type PublishResult = z.infer<typeof publishResultSchema>;
/** The project's site as the Publish dialog shows it. */
export const siteStateSchema = z.object({
  slug: z.nullable(z.string()),
  /** The slug the dialog proposes when the project has none yet (made from the project name). */
  suggestedSlug: z.string(),
  url: z.nullable(z.string()),
  liveDeploymentId: z.nullable(z.string()),
  /** The project's files differ from those the live deployment was built from. */
  unpublishedChanges: z.boolean(),
});
export type SiteState = z.infer<typeof siteStateSchema>;
/** One live site of the caller's (the project cards' "Live" badge). */
export const liveSiteSchema = z.object({ projectId: z.string(), slug: z.string(), url: z.string() });
export type LiveSite = z.infer<typeof liveSiteSchema>;
export const liveSiteListSchema = z.array(liveSiteSchema);
/** A domain of the project's own (`/api/projects/{id}/domains`): pending until its TXT record is found, then verified. */
export const siteDomainSchema = z.object({
  domain: z.string(),
  status: z.enum(["pending", "verified"]),
  /** The TXT record to create: `_appbuilder.<domain>` holding `txtValue`. */
  txtName: z.string(),
  txtValue: z.string(),
  verifiedAt: z.nullable(z.string()),
  /** Where the site answers once verified (`https://<domain>` behind Caddy). */
  url: z.string(),
});
export type SiteDomain = z.infer<typeof siteDomainSchema>;
export const siteDomainListSchema = z.array(siteDomainSchema);
