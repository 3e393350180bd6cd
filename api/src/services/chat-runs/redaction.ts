/**
 * The agent's secret ports, served from the project's secrets: a run's workspace gets `secrets` (ask the
 * owner for one, hide values in a tool result) and has its command output, logs and problems redacted as they
 * come out of the sandbox; the run manager gets a watch of the values for everything it streams and saves.
 * Values are read afresh (or, for the watch, reloaded on `project.env.changed`), so one set mid-run is hidden.
 *
 * @example
 * const workspace = withSecrets(createRunWorkspace(ctx, sandboxes, access), { ...ctx, values: () => secrets.values(projectId), projectId });
 * const redaction = createSecretRedaction(ctx, secrets.values); // RunDeps.redaction
 */
import type { AppRuntime, ProjectSandbox, ProjectSecrets, SecretRedaction, Workspace } from "../../agent/ports";
import { createStreamRedactor, redactDeep, redactSecrets, type SecretValue } from "../../lib/secret-redactor";
import type { ServiceContext } from "../context";
import { waitForSecret } from "../secrets/secret-requests";

type Values = () => Promise<SecretValue[]>;

export function createSecretRedaction(ctx: ServiceContext, values: (projectId: string) => Promise<SecretValue[]>): SecretRedaction {
  return {
    async watch(projectId) {
      let current = await values(projectId);
      let generation = 0;
      const unsubscribe = ctx.events.subscribe((event) => {
        if (event.type !== "project.env.changed" || event.projectId !== projectId) return;
        const mine = ++generation;
        void values(projectId).then(
          (fresh) => mine === generation && (current = fresh),
          (error: unknown) => ctx.logger.warn("secret values not reloaded for a run", { projectId, error: String(error) }),
        );
      });
      return { current: () => current, close: unsubscribe };
    },
  };
}

/** The workspace with the secrets port, and its sandbox's and app's output redacted on the way out. */
export function withSecrets<W extends Workspace>(workspace: W, deps: ServiceContext & { projectId: string; values: Values; timeoutMs?: number }): W {
  const { values } = deps;
  const secrets: ProjectSecrets = {
    async request(name, asked, signal) {
      const answer = waitForSecret(deps.events, deps.projectId, name, { signal, timeoutMs: deps.timeoutMs });
      asked(); // listening already: an answer given at once is heard
      return answer;
    },
    redact: async (text) => redactSecrets(text, await values()),
  };
  return {
    ...workspace,
    secrets,
    sandbox: workspace.sandbox && redactedSandbox(workspace.sandbox, values),
    app: workspace.app && redactedApp(workspace.app, values),
  };
}

function redactedSandbox(sandbox: ProjectSandbox, values: Values): ProjectSandbox {
  return {
    ...sandbox,
    async run(command, options) {
      const result = await sandbox.run(command, options);
      const list = await values();
      return { ...result, stdout: redactSecrets(result.stdout, list), stderr: redactSecrets(result.stderr, list) };
    },
    async start(command, onOutput) {
      // A background command's output arrives in pieces: a value split between two is still hidden.
      const list = await values();
      const stream = createStreamRedactor(() => list);
      await sandbox.start(command, (chunk) => {
        const text = stream.push(chunk);
        if (text) onOutput(text);
      });
    },
  };
}

function redactedApp(app: AppRuntime, values: Values): AppRuntime {
  const clean = async <T>(value: T): Promise<T> => redactDeep(value, await values());
  return {
    ...app,
    status: () => app.status(),
    restart: () => app.restart(),
    probe: async () => clean(await app.probe()),
    logTail: async (maxBytes) => clean(await app.logTail(maxBytes)),
    problemsSince: async (since) => clean(await app.problemsSince(since)),
    typeCheck: async (signal) => clean(await app.typeCheck(signal)),
    ...(app.loadPage ? { loadPage: async () => clean(await app.loadPage!()) } : {}),
    ...(app.previewLoad ? { previewLoad: () => app.previewLoad!() } : {}),
  };
}
