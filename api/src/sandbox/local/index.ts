/**
 * The local (bubblewrap) sandbox provider. See `local-provider.ts` for how a sandbox is put together.
 *
 * @example
 * import { createLocalProvider, checkLocalSandboxSupport } from "./sandbox/local/index.ts";
 */
export { createLocalProvider, type LocalProviderOptions } from "./local-provider.ts";
export { checkLocalSandboxSupport } from "./check.ts";
export { DEFAULT_LIMITS, type Limits } from "./limits.ts";
export type { LocalSandbox, LocalSandboxHostInfo } from "./local-sandbox.ts";
