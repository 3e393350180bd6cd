/** What `GET /api/config` tells the SPA at run time, so one build serves any deployment. */
export type PublicConfig = {
  auth: {
    mode: "emulator" | "firebase";
    projectId: string;
    apiKey: string;
    authDomain: string;
    /** Set in emulator mode: the SPA calls connectAuthEmulator with it. */
    emulatorUrl: string | null;
  };
  /** Whether a model endpoint is configured (chat explains what to set when not). */
  modelConfigured: boolean;
};

/**
 * Checks a `GET /api/config` answer. Written by hand rather than with zod: the SPA fetches it on the landing
 * page, whose script budget (150 KB gzipped) has no room for zod's ~18 KB.
 */
export function parsePublicConfig(value: unknown): PublicConfig {
  const fail = (what: string): never => {
    throw new TypeError(`Invalid /api/config answer: ${what}`);
  };
  if (!isObject(value)) return fail("not an object");
  const { auth, modelConfigured } = value;
  if (!isObject(auth)) return fail("auth is not an object");
  const { mode, projectId, apiKey, authDomain, emulatorUrl } = auth;
  if (mode !== "emulator" && mode !== "firebase") return fail("auth.mode");
  for (const [name, field] of Object.entries({ projectId, apiKey, authDomain })) {
    if (typeof field !== "string") fail(`auth.${name}`);
  }
  if (emulatorUrl !== null && typeof emulatorUrl !== "string") return fail("auth.emulatorUrl");
  if (typeof modelConfigured !== "boolean") return fail("modelConfigured");
  return {
    auth: { mode, projectId: projectId as string, apiKey: apiKey as string, authDomain: authDomain as string, emulatorUrl },
    modelConfigured,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
