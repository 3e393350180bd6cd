/**
 * The local (bubblewrap) sandbox provider. See `local-provider.ts` for how a sandbox is put together.
 *
 * @example
 * import { createLocalProvider, checkLocalSandboxSupport } from "./sandbox/local/index.ts";
 */
export { createLocalProvider } from "./local-provider.ts";
export { checkLocalSandboxSupport } from "./check.ts";
