/**
 * Publish: a project's built site, served at `<slug>.<SITES_DOMAIN>`. What the API accepts and answers for
 * `/api/projects/{id}/publish` and `…/deployments…`. A deployment is an immutable set of files (addressed
 * by SHA-256 like versions), recorded with the version of the project it was built from.
 */
import { z } from "zod";

/** What the API answers, inferred from the response schemas (./responses/). */
export type { Deployment, DeploymentStatus, LiveSite, PublishResult, SiteState } from "./responses";
import type { DeploymentStatus } from "./responses";

export const deploymentStatuses = ["building", "live", "failed", "superseded"] as const satisfies readonly DeploymentStatus[];

export const SLUG_MAX_LENGTH = 40;
/** Names that would look like the product's own hosts, or mislead visitors. */
export const RESERVED_SLUGS = new Set([
  "www",
  "api",
  "app",
  "admin",
  "administrator",
  "root",
  "mail",
  "email",
  "smtp",
  "imap",
  "pop",
  "ftp",
  "ns1",
  "ns2",
  "dns",
  "sites",
  "site",
  "static",
  "assets",
  "cdn",
  "media",
  "dashboard",
  "console",
  "status",
  "support",
  "help",
  "docs",
  "blog",
  "auth",
  "login",
  "signin",
  "signup",
  "account",
  "accounts",
  "billing",
  "security",
  "preview",
  "localhost",
  "webmail",
  "internal",
  "system",
  "test",
  "dev",
  "staging",
  "metrics",
  "health",
  "official",
]);

/** Why a slug cannot be used, or null when it can (uniqueness is the server's to check). */
export function slugProblem(slug: string): string | null {
  if (slug.length === 0) return "Choose a site name.";
  if (slug.length > SLUG_MAX_LENGTH) return `A site name has at most ${SLUG_MAX_LENGTH} characters.`;
  if (!/^[a-z0-9-]+$/.test(slug)) return "Use only lowercase letters, digits and hyphens.";
  if (slug.startsWith("-") || slug.endsWith("-")) return "A site name cannot start or end with a hyphen.";
  if (slug.includes("--")) return "A site name cannot hold two hyphens in a row.";
  if (RESERVED_SLUGS.has(slug)) return `"${slug}" is reserved; choose another name.`;
  return null;
}

export const publishRequestSchema = z.object({
  slug: z
    .string()
    .trim()
    .superRefine((s, ctx) => {
      const problem = slugProblem(s);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional()
    .describe("The site name: <slug>.<sites domain>. Defaults to the project's current one, else one made from its name"),
  allowFindings: z.boolean().optional().describe("Go live even when the scan finds secrets or credentials in files browsers get; the deployment records it"),
});
export type PublishRequest = z.infer<typeof publishRequestSchema>;
