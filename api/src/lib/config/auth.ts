/**
 * Sign-in: real Google sign-in through a Firebase project, or the Firebase Auth emulator (an existing one,
 * or one the app starts itself when nothing is configured). Emulated sign-in lets anyone be anyone, so it is
 * refused on a public host, beside a real Firebase project, and with an emulator off this machine.
 *
 * @example
 * authConfig(e, "127.0.0.1"); // nothing set: { mode: "emulator", startLocalEmulator: true, emulatorHost: "127.0.0.1:9099", … }
 */
import { z } from "zod";
import { boolString, ConfigError, optionalString } from "./values";

const LOCAL_EMULATOR_PROJECT = "demo-app-builder";
const LOCAL_EMULATOR_HOST = "127.0.0.1:9099";

export const authEnv = {
  FIREBASE_PROJECT_ID: optionalString,
  FIREBASE_API_KEY: optionalString,
  FIREBASE_AUTH_DOMAIN: optionalString,
  FIREBASE_AUTH_EMULATOR_HOST: optionalString.pipe(
    z
      .string()
      .regex(/^[^/\s]+:\d+$/, "must be host:port, such as 127.0.0.1:9099 (no http://)")
      .optional(),
  ),
  ALLOW_EMULATED_AUTH_ON_PUBLIC_HOST: boolString,
};

type AuthEnv = z.infer<z.ZodObject<typeof authEnv>>;

export type AuthConfig =
  | { mode: "firebase"; projectId: string; apiKey: string; authDomain: string }
  | {
      mode: "emulator";
      projectId: string;
      apiKey: string;
      authDomain: string;
      emulatorHost: string;
      /** true when the app itself must start the emulator (nothing was configured). */
      startLocalEmulator: boolean;
    };

export function authConfig(e: AuthEnv, host: string): AuthConfig {
  const loopback = host === "127.0.0.1" || host === "localhost" || host === "::1";
  const emulated = (projectId: string, emulatorHost: string, startLocalEmulator: boolean): AuthConfig => {
    if (!loopback && !e.ALLOW_EMULATED_AUTH_ON_PUBLIC_HOST) {
      throw new ConfigError(
        `Sign-in is emulated (anyone can sign in as anyone) but HOST=${host} is not loopback. ` +
          "Set FIREBASE_PROJECT_ID and FIREBASE_API_KEY for real Google sign-in, or set ALLOW_EMULATED_AUTH_ON_PUBLIC_HOST=true if you really mean it.",
      );
    }
    return {
      mode: "emulator",
      projectId,
      apiKey: e.FIREBASE_API_KEY ?? "demo-api-key",
      authDomain: e.FIREBASE_AUTH_DOMAIN ?? `${projectId}.firebaseapp.com`,
      emulatorHost,
      startLocalEmulator,
    };
  };
  if (e.FIREBASE_AUTH_EMULATOR_HOST) {
    refuseEmulatorMix(e);
    return emulated(e.FIREBASE_PROJECT_ID ?? LOCAL_EMULATOR_PROJECT, e.FIREBASE_AUTH_EMULATOR_HOST, false);
  }
  if (e.FIREBASE_PROJECT_ID) {
    if (!e.FIREBASE_API_KEY) {
      throw new ConfigError("FIREBASE_PROJECT_ID is set but FIREBASE_API_KEY is not: copy both from the Firebase console's web app config.");
    }
    if (e.FIREBASE_PROJECT_ID.startsWith("demo-")) {
      throw new ConfigError(
        `FIREBASE_PROJECT_ID=${e.FIREBASE_PROJECT_ID} is a demo project, which only the Auth emulator serves: set FIREBASE_AUTH_EMULATOR_HOST too, or use a real project id.`,
      );
    }
    return {
      mode: "firebase",
      projectId: e.FIREBASE_PROJECT_ID,
      apiKey: e.FIREBASE_API_KEY,
      authDomain: e.FIREBASE_AUTH_DOMAIN ?? `${e.FIREBASE_PROJECT_ID}.firebaseapp.com`,
    };
  }
  if (e.FIREBASE_API_KEY || e.FIREBASE_AUTH_DOMAIN) {
    throw new ConfigError("FIREBASE_API_KEY or FIREBASE_AUTH_DOMAIN is set without FIREBASE_PROJECT_ID: set FIREBASE_PROJECT_ID too.");
  }
  return emulated(LOCAL_EMULATOR_PROJECT, LOCAL_EMULATOR_HOST, true);
}

/**
 * Emulator mode accepts unsigned tokens that anyone can mint. Beside a real Firebase project (an id without
 * the `demo-` prefix the emulator reserves, or an API key) that would silently open real users' accounts to
 * forged tokens; an emulator reached over the network could be anyone's. Both stop start-up.
 */
function refuseEmulatorMix(e: AuthEnv): void {
  const emulatorHost = e.FIREBASE_AUTH_EMULATOR_HOST!;
  const projectId = e.FIREBASE_PROJECT_ID;
  if ((projectId && !projectId.startsWith("demo-")) || e.FIREBASE_API_KEY) {
    const real = projectId && !projectId.startsWith("demo-") ? `FIREBASE_PROJECT_ID=${projectId} (a real project)` : "FIREBASE_API_KEY";
    throw new ConfigError(
      `FIREBASE_AUTH_EMULATOR_HOST is set together with ${real}: emulator mode accepts unsigned tokens anyone can make, ` +
        "so it is refused beside a real Firebase project. Unset FIREBASE_AUTH_EMULATOR_HOST for real Google sign-in, " +
        "or use a demo- project id and no FIREBASE_API_KEY with the emulator.",
    );
  }
  const host = emulatorHost.slice(0, emulatorHost.lastIndexOf(":")).replace(/^\[|\]$/g, "");
  if (!(host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))) {
    throw new ConfigError(
      `FIREBASE_AUTH_EMULATOR_HOST=${emulatorHost} is not a loopback address: the emulator must run on this machine ` +
        `(127.0.0.1 or localhost) for FIREBASE_PROJECT_ID=${projectId ?? LOCAL_EMULATOR_PROJECT}, since whoever answers there decides who is signed in.`,
    );
  }
}
