/**
 * How instances sharing one database reach each other: the internal address this one is reached at
 * (INTERNAL_URL) and the secret every instance-to-instance request carries (INSTANCE_SECRET). Local sandboxes
 * run on the instance that started them; a preview, terminal or sandbox request that lands on another
 * instance is forwarded there with the secret. So with DATABASE_URL (several instances possible) and the
 * local provider, a missing or short secret stops start-up.
 *
 * @example
 * instancesConfig(e, { sharedDatabase: true, localSandboxes: true }); // ConfigError without INSTANCE_SECRET
 */
import { z } from "zod";
import { ConfigError, optionalString } from "./values";

/** Long enough that guessing it over the network is hopeless. */
const MIN_SECRET_LENGTH = 16;

export const instancesEnv = {
  INTERNAL_URL: optionalString.pipe(z.url({ message: "must be a full URL such as http://app-1:3000" }).optional()),
  INSTANCE_SECRET: optionalString,
};

export type InstancesConfig = {
  instances: {
    /** Where other instances reach this one; null: `http://<HOST>:<listening port>` (the host's name when HOST is 0.0.0.0). */
    internalUrl: string | null;
    /** Shared by every instance; null only where nothing is forwarded (one embedded instance, or E2B). */
    secret: string | null;
  };
};

export function instancesConfig(e: z.infer<z.ZodObject<typeof instancesEnv>>, setting: { sharedDatabase: boolean; localSandboxes: boolean }): InstancesConfig {
  const secret = e.INSTANCE_SECRET ?? null;
  if (secret !== null && secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`INSTANCE_SECRET must be at least ${MIN_SECRET_LENGTH} characters (make one with: openssl rand -hex 32).`);
  }
  if (secret === null && setting.sharedDatabase && setting.localSandboxes) {
    throw new ConfigError(
      "INSTANCE_SECRET is not set but DATABASE_URL is, with local sandboxes: a sandbox runs on the instance that started it, and the " +
        "others forward its preview and terminal there, authenticated by this shared secret. Set INSTANCE_SECRET to the same value on " +
        "every instance (make one with: openssl rand -hex 32).",
    );
  }
  return { instances: { internalUrl: e.INTERNAL_URL?.replace(/\/+$/, "") ?? null, secret } };
}
