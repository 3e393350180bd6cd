/**
 * A project's secrets: listed by name (never by value), set and removed by their owner, sealed at rest
 * (lib/secret-box.ts, bound to project and name), and given to every process in the project's sandbox through
 * the project environment (services/sandboxes/project-env.ts). A change restarts the project's `app` on
 * whichever instance runs it, and wakes a run waiting for that secret (secret-requests.ts).
 *
 * @example
 * const secrets = createProjectSecrets({ ...ctx, box: secretBoxFor(config.secrets), env: sandboxes.env });
 * await secrets.set(uid, projectId, "WEATHER_API_KEY", "abc123…"); // 400 for a bad name or value, 404 for another's project
 * await secrets.list(uid, projectId); // [{ name: "WEATHER_API_KEY", updatedAt: "…" }]
 */
import { MAX_SECRETS_PER_PROJECT, secretNameProblem, secretValueProblem, type SecretInfo } from "@shared/schemas/secrets";
import * as rows from "../../db/project-secrets";
import { badRequest, notFound } from "../../lib/errors";
import type { SecretsConfig } from "../../lib/config";
import { createSecretBox, loadOrCreateKeyFile, type SecretBox } from "../../lib/secret-box";
import type { SecretValue } from "../../lib/secret-redactor";
import type { ServiceContext } from "../context";
import type { ProjectAccess } from "../access";
import type { ProjectEnv } from "../sandboxes/project-env";

export type ProjectSecretsService = ReturnType<typeof createProjectSecrets>;

/** The box secrets are sealed with: SECRETS_KEY, or the embedded default's key file (made on first start). */
export function secretBoxFor(config: SecretsConfig): SecretBox {
  return createSecretBox(config.kind === "key" ? config.key : loadOrCreateKeyFile(config.file));
}

/** What binds a sealed value to its row: one copied to another project or name does not open. */
const sealContext = (projectId: string, name: string) => `project-secret:${projectId}/${name}`;

export function createProjectSecrets(ctx: ServiceContext & { box: SecretBox; env: Pick<ProjectEnv, "register" | "changed"> }) {
  /** Every secret of the project, opened. One that does not open (SECRETS_KEY changed) is left out, and logged. */
  async function values(projectId: string): Promise<SecretValue[]> {
    const sealed = await rows.listSealedSecrets(ctx.sql, projectId);
    const out: SecretValue[] = [];
    for (const s of sealed) {
      try {
        out.push({ name: s.name, value: ctx.box.open(s.sealed, sealContext(projectId, s.name)) });
      } catch (error) {
        ctx.logger.error("a project secret does not open: was SECRETS_KEY changed? Set the secret again.", { projectId, name: s.name, error: String(error) });
      }
    }
    return out;
  }

  ctx.env.register("secrets", async (projectId) => Object.fromEntries((await values(projectId)).map((s) => [s.name, s.value])));

  return {
    values,

    async list(access: ProjectAccess): Promise<SecretInfo[]> {
      const { projectId } = access;
      return (await rows.listSecretNames(ctx.sql, projectId)).map((r) => ({ name: r.name, updatedAt: r.updatedAt.toISOString() }));
    },

    /** Creates or replaces it; the project's `app` restarts with it. */
    /** `value` null: the request carried none (not JSON, or no string `value`). */
    async set(access: ProjectAccess, name: string, value: string | null): Promise<SecretInfo & { created: boolean }> {
      const { ownerId, projectId } = access;
      const problem = secretNameProblem(name) ?? (value === null ? 'Send the value as JSON: {"value": "…"}.' : secretValueProblem(value));
      if (problem || value === null) throw badRequest(problem ?? "no value");
      const saved = await rows.upsertSecret(ctx.sql, {
        projectId,
        name,
        sealed: ctx.box.seal(value, sealContext(projectId, name)),
        max: MAX_SECRETS_PER_PROJECT,
      });
      if (saved === "gone") throw notFound("Project");
      if (saved === "full") throw badRequest(`A project holds at most ${MAX_SECRETS_PER_PROJECT} secrets; delete one you no longer need first.`);
      await ctx.env.changed(ownerId, projectId, [name]);
      return { name, updatedAt: saved.updatedAt.toISOString(), created: saved.created };
    },

    /** 404 when there is no such secret; the project's `app` restarts without it. */
    async remove(access: ProjectAccess, name: string): Promise<void> {
      const { ownerId, projectId } = access;
      if (!(await rows.deleteSecret(ctx.sql, projectId, name))) throw notFound("Secret");
      await ctx.env.changed(ownerId, projectId, [name]);
    },
  };
}
