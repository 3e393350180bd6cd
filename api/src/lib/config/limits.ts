/**
 * What one user may use: upload, body, project and file-count sizes, projects and running sandboxes per user,
 * requests per minute per kind, and how long versions are kept.
 *
 * @example
 * limitsConfig(e).rateLimits.chat; // 20 chat messages per user per minute unless RATE_LIMIT_CHAT_PER_MINUTE says otherwise
 */
import type { z } from "zod";
import { countOrOff, positiveInt } from "./values";

export const limitsEnv = {
  MAX_UPLOAD_BYTES: positiveInt(10 * 1024 * 1024),
  MAX_BODY_BYTES: positiveInt(12 * 1024 * 1024),
  MAX_FILES_PER_PROJECT: positiveInt(2000),
  MAX_PROJECT_BYTES: positiveInt(200 * 1024 * 1024),
  MAX_PROJECTS_PER_USER: countOrOff(100),
  MAX_SANDBOXES_PER_USER: countOrOff(3),
  MAX_MEMBERS_PER_PROJECT: countOrOff(20),
  RATE_LIMIT_CHAT_PER_MINUTE: countOrOff(20),
  RATE_LIMIT_UPLOADS_PER_MINUTE: countOrOff(30),
  RATE_LIMIT_SHELL_PER_MINUTE: countOrOff(60),
  RATE_LIMIT_SANDBOX_PER_MINUTE: countOrOff(10),
  RATE_LIMIT_PROJECTS_PER_MINUTE: countOrOff(20),
  RATE_LIMIT_DOWNLOADS_PER_MINUTE: countOrOff(10),
  RATE_LIMIT_PUBLISH_PER_MINUTE: countOrOff(5),
  VERSIONS_KEEP_DAYS: positiveInt(30),
};

export type LimitsConfig = {
  /**
   * maxProjectBytes counts files and uploaded images together; maxProjectsPerUser 0 = no cap.
   * maxSandboxesPerUser: sandboxes one user runs at once, on every instance together (0 = no cap).
   */
  limits: {
    maxUploadBytes: number;
    maxBodyBytes: number;
    maxFilesPerProject: number;
    maxProjectBytes: number;
    maxProjectsPerUser: number;
    maxSandboxesPerUser: number;
    /** People one project may have besides its owner, invitations included (0 = no cap). */
    maxMembersPerProject: number;
  };
  /**
   * Per-user requests per window, counted in the database so every instance shares them; 0 = no limit.
   * `sandbox` counts the routes that start or restart sandboxes (recreate, template, run-workflow),
   * `projects` project creations (imports included), `downloads` project downloads (map and ZIP).
   */
  rateLimits: { windowSeconds: number; chat: number; uploads: number; shell: number; sandbox: number; projects: number; downloads: number; publish: number };
  /** Versions older than this many days are deleted (each project's newest 20 always stay). */
  versionsKeepDays: number;
};

export function limitsConfig(e: z.infer<z.ZodObject<typeof limitsEnv>>): LimitsConfig {
  return {
    limits: {
      maxUploadBytes: e.MAX_UPLOAD_BYTES,
      maxBodyBytes: e.MAX_BODY_BYTES,
      maxFilesPerProject: e.MAX_FILES_PER_PROJECT,
      maxProjectBytes: e.MAX_PROJECT_BYTES,
      maxProjectsPerUser: e.MAX_PROJECTS_PER_USER,
      maxSandboxesPerUser: e.MAX_SANDBOXES_PER_USER,
      maxMembersPerProject: e.MAX_MEMBERS_PER_PROJECT,
    },
    rateLimits: {
      windowSeconds: 60,
      chat: e.RATE_LIMIT_CHAT_PER_MINUTE,
      uploads: e.RATE_LIMIT_UPLOADS_PER_MINUTE,
      shell: e.RATE_LIMIT_SHELL_PER_MINUTE,
      sandbox: e.RATE_LIMIT_SANDBOX_PER_MINUTE,
      projects: e.RATE_LIMIT_PROJECTS_PER_MINUTE,
      downloads: e.RATE_LIMIT_DOWNLOADS_PER_MINUTE,
      publish: e.RATE_LIMIT_PUBLISH_PER_MINUTE,
    },
    versionsKeepDays: e.VERSIONS_KEEP_DAYS,
  };
}
