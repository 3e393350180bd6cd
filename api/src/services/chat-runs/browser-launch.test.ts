import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { BROWSER_UID, browserLaunch, wrapperScript } from "./browser-launch";

describe("the check browser's launch", () => {
  test("not root: Chromium itself, its sandbox on", () => {
    expect(browserLaunch("/usr/bin/chromium", false)).toEqual({ executablePath: "/usr/bin/chromium", args: [], sandboxed: true });
  });

  test("root: an executable wrapper that hands the profile to nobody and execs Chromium as nobody", () => {
    const launch = browserLaunch("/usr/bin/chromium", true);
    expect(launch.sandboxed).toBe(true);
    expect(launch.args).not.toContain("--no-sandbox");
    expect(statSync(launch.executablePath).mode & 0o111).not.toBe(0);
    const script = readFileSync(launch.executablePath, "utf8");
    expect(script).toContain(`chown -R ${BROWSER_UID}:${BROWSER_UID} "$profile"`);
    expect(script).toMatch(/exec '\/(usr\/)?bin\/setpriv' --reuid=65534 --regid=65534 --clear-groups -- '\/usr\/bin\/chromium' "\$@"/);
  });

  test("paths are quoted for the shell", () => {
    expect(wrapperScript("/usr/bin/setpriv", "/opt/it's/chrome")).toContain(`'/opt/it'\\''s/chrome' "$@"`);
  });
});
