/** The dependencies the Hono app is built from, and its context variables. */
import type { ServerRuntime } from "./services/server-deployments/runtime";
import type { PublicConfig } from "@shared/schemas/config";
import type { RunManager } from "./agent/runs";

/** A chat run as routes see it (the agent owns its shape). */
export type { Run } from "./agent/runs";
import type { AuthEnv } from "./auth/middleware";
import type { TokenVerifier } from "./auth/types";
import type { Config } from "./lib/config";
import type { Drain } from "./lib/drain";
import type { PreviewTickets } from "./lib/preview-grant";
import type { ImageSigner } from "./services/images";
import type { ProjectSandboxesService } from "./services/sandboxes";
import type { ProjectSecretsService } from "./services/secrets";
import type { GitService } from "./services/git";
import type { UserGate } from "./services/users";
import type { ServiceContext } from "./services/context";
import type { InstanceAuth } from "./lib/instance-auth";
import type { SandboxOwners } from "./services/sandboxes/owners";

export type AppDeps = ServiceContext & {
  config: Config;
  verifyToken: TokenVerifier;
  signer: ImageSigner;
  /** Signs the tickets and cookies that let a browser onto a preview host (the proxy opens them). */
  previewTickets: PreviewTickets;
  publicConfig: PublicConfig;
  sandboxes: ProjectSandboxesService;
  /** Each project's secrets (`/api/projects/{id}/secrets`), in its sandbox's environment. */
  secrets: ProjectSecretsService;
  /** Each project's git remote (`/api/projects/{id}/git`, import by URL, the push after a run). */
  git: GitService;
  /** Published servers this instance runs (issue 22); absent: projects with a start script cannot be published. */
  servers?: ServerRuntime;
  /** The process's one set of agent runs, built at the composition root (`compose.ts`) so shutdown can stop them. */
  runs: RunManager;
  /** Set on SIGTERM: /api/ready answers 503 and no new run, sandbox or publish build starts here. */
  drain: Drain;
  /** The signed-in check (a disabled account is refused), shared with the sockets; the app makes one when absent. */
  userGate?: UserGate;
  /**
   * Several instances with local sandboxes: INSTANCE_SECRET's check and where each sandbox's owner is, so a
   * sandbox request that lands here is forwarded to it. Absent: every request is served here.
   */
  instances?: { auth: InstanceAuth; owners: SandboxOwners };
  /** Folder of the built SPA to serve, or null to serve the API alone (tests, `bun run dev`). */
  webDist: string | null;
};

export type AppEnv = AuthEnv;
