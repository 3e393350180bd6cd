/** The dependencies the Hono app is built from, and its context variables. */
import type { PublicConfig } from "@shared/schemas/config";
import type { AuthEnv } from "./auth/middleware";
import type { TokenVerifier } from "./auth/types";
import type { Config } from "./lib/config";
import type { ImageSigner } from "./services/images";
import type { ServiceContext } from "./services/context";

export type AppDeps = ServiceContext & {
  config: Config;
  verifyToken: TokenVerifier;
  signer: ImageSigner;
  publicConfig: PublicConfig;
  /** Folder of the built SPA to serve, or null to serve the API alone (tests, `bun run dev`). */
  webDist: string | null;
};

export type AppEnv = AuthEnv;
