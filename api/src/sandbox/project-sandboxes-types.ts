/**
 * What the rest of the API (routes, the agent's tools) needs from a project's sandbox, without knowing
 * which provider runs it. Implemented in `project-sandboxes.ts`.
 */
import type { Sandbox } from "./types";

export type TemplateName = "react" | "vite" | "node";

export interface ProjectSandboxes {
  /**
   * The project's running sandbox. Created on first need (or when the old one expired), filled with every
   * stored file, watched so changes made inside flow back to storage, and recorded on the project.
   */
  ensure(ownerId: string, projectId: string): Promise<Sandbox>;
  /**
   * Writes a template's files to storage and sandbox, installs its dependencies, and sets the project's
   * workflowCommand. Returns how many files were written and the command.
   */
  applyTemplate(ownerId: string, projectId: string, template: TemplateName): Promise<{ filesWritten: number; workflowCommand: string }>;
  /** Starts the project's workflowCommand in the background (restarting it if it runs). */
  runWorkflow(ownerId: string, projectId: string): Promise<{ workflowCommand: string }>;
}
