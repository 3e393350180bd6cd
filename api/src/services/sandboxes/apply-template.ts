/**
 * create_boilerplate, for the agent and the template route alike: a template's files written to storage and
 * the sandbox, its dependencies installed (from the template cache when it can), the project's workflow and
 * preview port set, the dev server started and waited for (bounded), so the preview answers at once.
 */
import { findFileByPath } from "../../db/files";
import { setWorkflowCommand } from "../../db/project-workflow";
import { setPreviewPort, setProjectSandbox } from "../../db/project-sandbox";
import type { Config } from "../../lib/config";
import { AppError } from "../../lib/errors";
import type { ServiceContext } from "../context";
import { KNOWLEDGE_PATH } from "../chat-runs/project-knowledge";
import { writeFileAtPath } from "../files";
import type { ProjectAccess } from "../access";
import { installDependencies, type DependencyDeps } from "./dependencies";
import type { SandboxLifecycle } from "./lifecycle";
import { previewUrlFor } from "./preview-url";
import type { SandboxSyncService } from "./sync";
import { loadTemplate } from "./templates";
import type { AppliedTemplate, StartOptions, TemplateName } from "./types";
import { startWorkflow, waitForServer } from "./workflow";

/** How long an apply waits for the template's dev server to accept connections before answering anyway. */
const SERVER_START_WAIT_MS = 20_000;

export type ApplyTemplateDeps = ServiceContext & { config: Config; lifecycle: SandboxLifecycle; sync: SandboxSyncService } & DependencyDeps;

export async function applyTemplate(deps: ApplyTemplateDeps, access: ProjectAccess, name: TemplateName, start: StartOptions = {}): Promise<AppliedTemplate> {
  const { projectId } = access;
  const template = await loadTemplate(name);
  const sandbox = await deps.lifecycle.ensure(access, start);
  // Written through the sync's hook (into the sandbox just ensured, bytes in hand); origin "sandbox" because
  // the sandbox already has them, so no instance pushes them in again.
  const writer: ServiceContext = { ...deps, origin: "sandbox", sandboxSync: deps.sync };
  // The user's own AGENTS.md (written before asking for an app) outranks the template's generic one.
  const keepKnowledge = (await findFileByPath(deps.sql, projectId, KNOWLEDGE_PATH)) !== null;
  let filesWritten = 0;
  for (const file of template.files) {
    if (keepKnowledge && file.path === KNOWLEDGE_PATH) continue;
    await writeFileAtPath(writer, access, file.path, file.content);
    filesWritten++;
  }
  const installed = await installDependencies(deps, sandbox, template, template.install);
  if (installed.exitCode !== 0) {
    throw new AppError(500, "internal", `Installing the ${name} template's dependencies failed: ${installed.output}`);
  }
  const url = previewUrlFor(deps.config.preview, sandbox, template.port);
  await setWorkflowCommand(deps.sql, projectId, template.workflowCommand);
  await setPreviewPort(deps.sql, projectId, template.port);
  await setProjectSandbox(deps.sql, projectId, sandbox.id, url);
  await startWorkflow(sandbox, template.workflowCommand);
  if (!(await waitForServer(sandbox, template.port, SERVER_START_WAIT_MS))) {
    deps.logger.warn("the template's dev server is not accepting connections yet", { projectId, template: name, port: template.port });
  }
  return { filesWritten, workflowCommand: template.workflowCommand, url, dependencies: installed.source };
}
