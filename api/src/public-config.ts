/** Builds what GET /api/config tells the SPA (never secrets: Firebase web keys are public by design). */
import type { PublicConfig } from "@shared/schemas/config";
import type { Config } from "./lib/config";

export function toPublicConfig(config: Config): PublicConfig {
  const { auth } = config;
  return {
    auth: {
      mode: auth.mode,
      projectId: auth.projectId,
      apiKey: auth.apiKey,
      authDomain: auth.authDomain,
      emulatorUrl: auth.mode === "emulator" ? `http://${auth.emulatorHost}` : null,
    },
    modelConfigured: config.model.configured,
  };
}
