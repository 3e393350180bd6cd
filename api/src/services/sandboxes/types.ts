/**
 * What the rest of the API (routes, the agent's tools) needs from a project's sandbox, without knowing
 * which provider runs it. Implemented by `createProjectSandboxes` (index.ts).
 */
import type { TemplateName } from "@shared/schemas/sandbox";
import type { Sandbox } from "../../sandbox/types";
import type { ProjectAccess } from "../access";

export type { TemplateName };

/** `startCounted`: the request was counted against the sandbox-start limit already (by its route), so a sandbox it makes is not counted twice. */
export type StartOptions = { startCounted?: boolean };

/** Where a template's dependencies came from: a copy of the shared cache, its install command, or none needed. */
export type DependencySource = "template-cache" | "install" | "none";

export type AppliedTemplate = {
  filesWritten: number;
  workflowCommand: string;
  /** The preview URL of the template's dev server. */
  url: string;
  dependencies: DependencySource;
};

export interface ProjectSandboxes {
  /**
   * The project's running sandbox. Created on first need (or when the old one expired), filled with every
   * stored file, watched so changes made inside flow back to storage, and recorded on the project.
   */
  ensure(access: ProjectAccess, options?: StartOptions): Promise<Sandbox>;
  /**
   * Writes a template's files to storage and sandbox, installs its dependencies, and sets the project's
   * workflowCommand, then starts it in the background and waits (bounded) until its port accepts connections,
   * so the preview answers at once. Returns how many files were written, the command, the preview URL and
   * where the dependencies came from.
   */
  applyTemplate(access: ProjectAccess, template: TemplateName, options?: StartOptions): Promise<AppliedTemplate>;
  /** Starts the project's workflowCommand as its supervised `app` process (restarting it if it runs). */
  runWorkflow(access: ProjectAccess, options?: StartOptions): Promise<{ workflowCommand: string }>;
}
