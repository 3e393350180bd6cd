/**
 * Debian's `caddy` for tests and benches. `startCaddy` runs the project's own Caddyfile over plain HTTP on a
 * free port (the port in DOMAIN and HTTP_PORT, as the Caddyfile documents), in front of the given app
 * instances; `runCaddy` runs any Caddyfile. Each keeps its storage in a temp HOME and is ready once
 * `readyUrl` answers (for the project's Caddyfile: the app's health, through it).
 *
 * @example
 * const caddy = await startCaddy([`127.0.0.1:${app.port}`]);
 * await fetch(`${caddy.url}/api/health`);
 * await caddy.stop();
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { unusedPort } from "./app-process";

const CADDYFILE = resolve(import.meta.dir, "../../../Caddyfile");

export type CaddyProcess = { port: number; url: string; stop(): Promise<void> };

export async function startCaddy(upstreams: string[]): Promise<CaddyProcess> {
  const port = unusedPort();
  const url = `http://localhost:${port}`;
  const { stop } = await runCaddy({
    caddyfile: CADDYFILE,
    // Own domains over plain HTTP on the same port, as the Caddyfile says for this setup (no :443 listener).
    env: {
      DOMAIN: `localhost:${port}`,
      HTTP_PORT: String(port),
      APP_UPSTREAMS: upstreams.join(" "),
      CADDY_ADMIN: "off",
      WILDCARD_TLS: "internal",
      OWN_DOMAINS_SITE: "http://",
    },
    readyUrl: `${url}/api/health`,
  });
  return { port, url, stop };
}

/** `caddyfile` is a path, or `(home) => path` for one written into Caddy's own fresh HOME. */
export async function runCaddy(o: {
  caddyfile: string | ((home: string) => string);
  env?: Record<string, string>;
  readyUrl: string;
}): Promise<{ stop(): Promise<void> }> {
  const home = mkdtempSync(join(tmpdir(), "caddy-"));
  const caddyfile = typeof o.caddyfile === "string" ? o.caddyfile : o.caddyfile(home);
  const proc = Bun.spawn(["caddy", "run", "--config", caddyfile, "--adapter", "caddyfile"], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      XDG_DATA_HOME: join(home, "data"),
      XDG_CONFIG_HOME: join(home, "config"),
      ...o.env,
    },
    stdout: "ignore",
    stderr: "ignore",
  });
  const stop = async () => {
    proc.kill("SIGTERM");
    await proc.exited;
    rmSync(home, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (
    !(await fetch(o.readyUrl).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) {
      await stop();
      throw new Error("Caddy did not answer within 10 s");
    }
    await Bun.sleep(100);
  }
  return { stop };
}
