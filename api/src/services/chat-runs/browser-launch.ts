/**
 * How the check's headless Chromium is launched with its own sandbox on. Chromium refuses its sandbox as root,
 * and a server run as root (the usual container, and the local sandbox provider needs it) would otherwise run
 * the app's code in a browser with no sandbox at all. So as root the browser is started through a small wrapper
 * that hands playwright's profile folder to an unprivileged user (`nobody`) and execs Chromium as that user with
 * `setpriv`; Chromium then sandboxes itself with user namespaces. Where that cannot work (no `setpriv`), the
 * browser runs with `--no-sandbox` and start-up of the browser says so in the log.
 *
 * @example
 * const launch = browserLaunch("/usr/bin/chromium"); // { executablePath: "/tmp/…/chromium-as-nobody", args: [], sandboxed: true }
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The unprivileged user the browser runs as when the server is root. */
export const BROWSER_UID = 65534;
export const BROWSER_GID = 65534;
const SETPRIV_PATHS = ["/usr/bin/setpriv", "/bin/setpriv"];

export type BrowserLaunch = {
  executablePath: string;
  /** Extra arguments ahead of the usual ones (`--no-sandbox` only where the sandbox cannot be had). */
  args: string[];
  /** Whether Chromium keeps its own sandbox. */
  sandboxed: boolean;
};

const shellQuote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;

/** The wrapper's text: chown the profile playwright made (root's, mode 0700), then exec Chromium as the user. */
export function wrapperScript(setpriv: string, chromium: string): string {
  return [
    "#!/bin/sh",
    "# Written by the app builder's server: runs the check's Chromium as an unprivileged user, its sandbox on.",
    'for arg in "$@"; do',
    '  case "$arg" in --user-data-dir=*) profile="${arg#--user-data-dir=}" ;; esac',
    "done",
    'if [ -n "$profile" ]; then',
    `  chown -R ${BROWSER_UID}:${BROWSER_GID} "$profile" || exit 1`,
    '  export HOME="$profile"',
    "fi",
    `exec ${shellQuote(setpriv)} --reuid=${BROWSER_UID} --regid=${BROWSER_GID} --clear-groups -- ${shellQuote(chromium)} "$@"`,
    "",
  ].join("\n");
}

/** Launch settings for `chromium` in this process (root or not). */
export function browserLaunch(chromium: string, isRoot = process.getuid?.() === 0): BrowserLaunch {
  if (!isRoot) return { executablePath: chromium, args: [], sandboxed: true };
  const setpriv = SETPRIV_PATHS.find((path) => existsSync(path));
  if (!setpriv) return { executablePath: chromium, args: ["--no-sandbox"], sandboxed: false };
  const folder = mkdtempSync(join(tmpdir(), "check-browser-"));
  const wrapper = join(folder, "chromium-as-nobody");
  writeFileSync(wrapper, wrapperScript(setpriv, chromium), { mode: 0o755 });
  return { executablePath: wrapper, args: [], sandboxed: true };
}
