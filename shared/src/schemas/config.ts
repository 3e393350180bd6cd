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
