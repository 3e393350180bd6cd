/**
 * A real git smart-HTTP server for tests: `git http-backend` (the CGI program git ships) behind a small Bun
 * server on 127.0.0.1 with HTTP basic auth, serving bare repositories from a temp folder. Every request's
 * Authorization header is recorded, and the `git` CLI works on the same repositories through their paths.
 *
 * @example
 * const server = await startGitServer({ username: "alice", password: "s3cret" });
 * const url = server.createRepo("app"); // http://127.0.0.1:PORT/app.git, empty, default branch main
 * server.git(["log", "--oneline"], server.pathOf("app"));
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const BACKEND = "/usr/lib/git-core/git-http-backend";

export type GitServer = Awaited<ReturnType<typeof startGitServer>>;

const gitEnv = {
  GIT_AUTHOR_NAME: "Remote Dev",
  GIT_AUTHOR_EMAIL: "remote@example.com",
  GIT_COMMITTER_NAME: "Remote Dev",
  GIT_COMMITTER_EMAIL: "remote@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: tmpdir(),
};

export async function startGitServer(o: { username: string; password: string }) {
  const root = mkdtempSync(join(tmpdir(), "git-server-"));
  const requests: { method: string; path: string; authorization: string | null }[] = [];
  const expected = `Basic ${Buffer.from(`${o.username}:${o.password}`).toString("base64")}`;

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 60,
    async fetch(req) {
      const url = new URL(req.url);
      const authorization = req.headers.get("authorization");
      requests.push({ method: req.method, path: url.pathname, authorization });
      if (authorization !== expected) return new Response("auth required", { status: 401, headers: { "www-authenticate": 'Basic realm="git"' } });
      const body = new Uint8Array(await req.arrayBuffer());
      const proc = Bun.spawn([BACKEND], {
        env: {
          ...process.env,
          GIT_PROJECT_ROOT: root,
          GIT_HTTP_EXPORT_ALL: "1",
          PATH_INFO: decodeURIComponent(url.pathname),
          REQUEST_METHOD: req.method,
          QUERY_STRING: url.search.slice(1),
          CONTENT_TYPE: req.headers.get("content-type") ?? "",
          CONTENT_LENGTH: String(body.length),
          HTTP_CONTENT_ENCODING: req.headers.get("content-encoding") ?? "",
          GIT_PROTOCOL: req.headers.get("git-protocol") ?? "",
          REMOTE_USER: o.username,
          REMOTE_ADDR: "127.0.0.1",
        },
        stdin: body,
        stdout: "pipe",
        stderr: "pipe",
      });
      const out = new Uint8Array(await new Response(proc.stdout).arrayBuffer());
      await proc.exited;
      // CGI output: headers, a blank line, the body.
      let split = -1;
      for (let i = 0; i < out.length - 1; i++) {
        if (out[i] === 10 && out[i + 1] === 10) {
          split = i;
          break;
        }
        if (out[i] === 13 && out[i + 1] === 10 && out[i + 2] === 13 && out[i + 3] === 10) {
          split = i + 1;
          break;
        }
      }
      const head = new TextDecoder().decode(out.slice(0, split)).replace(/\r/g, "");
      const rest = out.slice(split + (out[split] === 10 && out[split + 1] === 10 ? 2 : 3));
      const headers = new Headers();
      let status = 200;
      for (const line of head.split("\n")) {
        const at = line.indexOf(":");
        if (at < 0) continue;
        const name = line.slice(0, at).trim();
        const value = line.slice(at + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else headers.append(name, value);
      }
      return new Response(rest, { status, headers });
    },
  });

  const origin = `http://127.0.0.1:${server.port}`;
  const git = (args: string[], cwd = root) => {
    const r = Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, ...gitEnv }, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr.toString()}`);
    return r.stdout.toString().trim();
  };
  const pathOf = (name: string) => join(root, `${name}.git`);

  return {
    origin,
    root,
    requests,
    git,
    pathOf,
    urlOf: (name: string) => `${origin}/${name}.git`,
    /** An empty bare repository (default branch main); its URL. */
    createRepo(name: string): string {
      git(["init", "--bare", "-q", "-b", "main", pathOf(name)]);
      return `${origin}/${name}.git`;
    },
    /** Commits `files` (path → text, null deletes) on the branch with the git CLI, straight into the bare repository; the new commit. */
    commit(name: string, files: Record<string, string | null>, message: string, branch = "main"): string {
      const work = mkdtempSync(join(tmpdir(), "git-work-"));
      try {
        git(["clone", "-q", pathOf(name), work]);
        const hasBranch = git(["ls-remote", "--heads", "origin", branch], work) !== "";
        if (hasBranch) git(["checkout", "-q", branch], work);
        else git(["checkout", "-q", "--orphan", branch], work);
        for (const [path, text] of Object.entries(files)) {
          if (text === null) git(["rm", "-q", path], work);
          else {
            mkdirSync(dirname(join(work, path)), { recursive: true });
            writeFileSync(join(work, path), text);
            git(["add", path], work);
          }
        }
        git(["commit", "-q", "-m", message], work);
        git(["push", "-q", "origin", `HEAD:refs/heads/${branch}`], work);
        return git(["rev-parse", "HEAD"], work);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    /** A file's text at the branch's head, as the git CLI reads it. */
    show(name: string, path: string, branch = "main"): string {
      return git(["--git-dir", pathOf(name), "show", `${branch}:${path}`]);
    },
    close() {
      server.stop(true);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
