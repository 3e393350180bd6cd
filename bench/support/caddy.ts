/**
 * Debian's Caddy for the benches that compare with it or put it in front of the app (the running itself is
 * api/src/test/caddy-process.ts): the check that it is installed.
 *
 * @example
 * requireCaddy(); // throws, saying how to install it, when it is missing
 */
export function requireCaddy(): void {
  if (!Bun.which("caddy")) throw new Error("caddy is not installed: run `bash scripts/setup-test-env.sh` (or apt-get install -y caddy).");
}
