/**
 * The one file that speaks to isomorphic-git: a bare repository per project used as an object cache
 * (DATA_DIR/git-cache/<project>.git, rebuildable from the remote at any time, so each instance keeps its
 * own and none depends on another's), reaching remotes through the guarded HTTP client handed in.
 *
 * isomorphic-git rather than the git CLI: it runs in the API process with no binary in the image and no
 * sandbox to start, and it takes our own HTTP client, which is where the outbound rules (HTTPS, public
 * addresses after DNS and on every redirect, time limit, response size) are enforced. Credentials go as an
 * Authorization header on that client, never into a URL, a config file or the cache.
 *
 * @example
 * const head = await remoteHead(remote, "main"); // null: the branch does not exist (or the repository is empty)
 */
import * as fs from "node:fs";
import git, { type HttpClient, type TreeEntry } from "isomorphic-git";

export type GitRemote = { url: string; headers: Record<string, string>; http: HttpClient };
export type RepoEntry = { path: string; mode: string; oid: string; type: "blob" | "tree" | "commit" };
export type Author = { name: string; email: string };

/** A bare repository at `gitdir`, made on first use. */
export async function openRepo(gitdir: string): Promise<string> {
  if (!fs.existsSync(`${gitdir}/HEAD`)) {
    fs.mkdirSync(gitdir, { recursive: true });
    await git.init({ fs, gitdir, bare: true, defaultBranch: "main" });
  }
  return gitdir;
}

/** The branch's commit on the remote (a ref listing, which also checks access), or null when it has none. */
export async function remoteHead(remote: GitRemote, branch: string): Promise<string | null> {
  const refs = await git.listServerRefs({ http: remote.http, url: remote.url, headers: remote.headers, prefix: `refs/heads/${branch}`, protocolVersion: 1 });
  return refs.find((r) => r.ref === `refs/heads/${branch}`)?.oid ?? null;
}

/** Fetches the branch's newest `depth` commits into the cache; the head commit. */
export async function fetchBranch(gitdir: string, remote: GitRemote, branch: string, depth: number): Promise<string | null> {
  // fetch looks up its refspec in the config: "origin" names the URL (never with credentials) there.
  await git.addRemote({ fs, gitdir, remote: "origin", url: remote.url, force: true });
  const result = await git.fetch({
    fs,
    http: remote.http,
    gitdir,
    remote: "origin",
    headers: remote.headers,
    ref: branch,
    remoteRef: branch,
    singleBranch: true,
    tags: false,
    depth,
  });
  return result.fetchHead;
}

export async function hasObject(gitdir: string, oid: string): Promise<boolean> {
  try {
    await git.readObject({ fs, gitdir, oid, format: "deflated" });
    return true;
  } catch {
    return false;
  }
}

/** Every entry under the commit's tree, depth first, with paths from the root. */
export async function listTree(gitdir: string, commit: string): Promise<RepoEntry[]> {
  const out: RepoEntry[] = [];
  const cache = {};
  const walk = async (oid: string, prefix: string) => {
    const { tree } = await git.readTree({ fs, gitdir, oid, cache });
    for (const e of tree) {
      const path = `${prefix}${e.path}`;
      if (e.type === "tree") await walk(e.oid, `${path}/`);
      else out.push({ path, mode: e.mode, oid: e.oid, type: e.type });
    }
  };
  await walk(commit, "");
  return out;
}

export async function readBlob(gitdir: string, oid: string, cache?: object): Promise<Uint8Array> {
  return (await git.readBlob({ fs, gitdir, oid, cache })).blob;
}

export const writeBlob = (gitdir: string, bytes: Uint8Array) => git.writeBlob({ fs, gitdir, blob: bytes });

/** Writes the trees for flat `files` (path → blob oid, all regular files) and answers the root tree's oid. */
export async function writeFiles(gitdir: string, files: Map<string, string>): Promise<string> {
  type Dir = { files: Map<string, string>; dirs: Map<string, Dir> };
  const root: Dir = { files: new Map(), dirs: new Map() };
  for (const [path, oid] of files) {
    const parts = path.split("/");
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      let next = dir.dirs.get(part);
      if (!next) dir.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
      dir = next;
    }
    dir.files.set(parts.at(-1)!, oid);
  }
  const write = async (dir: Dir): Promise<string> => {
    const tree: TreeEntry[] = [];
    for (const [name, oid] of dir.files) tree.push({ mode: "100644", path: name, oid, type: "blob" });
    for (const [name, sub] of dir.dirs) tree.push({ mode: "040000", path: name, oid: await write(sub), type: "tree" });
    return git.writeTree({ fs, gitdir, tree });
  };
  return write(root);
}

export async function treeOf(gitdir: string, commit: string): Promise<string> {
  return (await git.readCommit({ fs, gitdir, oid: commit })).commit.tree;
}

export async function writeCommit(gitdir: string, c: { tree: string; parent: string | null; author: Author; message: string }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const who = { ...c.author, timestamp: now, timezoneOffset: 0 };
  return git.writeCommit({ fs, gitdir, commit: { tree: c.tree, parent: c.parent ? [c.parent] : [], author: who, committer: who, message: c.message } });
}

const NO_COMMIT = "0000000000000000000000000000000000000000";

/**
 * Points the branch at `commit` on the remote, only if the remote's branch is still at `expected` (null: it
 * has none), as the push's own ref listing shows: `moved` when it is not (nothing was sent). ok false with
 * the remote's reason when it refused.
 */
export async function pushCommit(
  gitdir: string,
  remote: GitRemote,
  branch: string,
  commit: string,
  expected: string | null,
): Promise<{ ok: boolean; moved: boolean; error: string | null }> {
  await git.writeRef({ fs, gitdir, ref: `refs/heads/${branch}`, value: commit, force: true });
  try {
    const result = await git.push({
      fs,
      http: remote.http,
      gitdir,
      url: remote.url,
      headers: remote.headers,
      ref: branch,
      remoteRef: branch,
      onPrePush: ({ remoteRef }) => remoteRef.oid === (expected ?? NO_COMMIT),
    });
    const ref = result.refs[`refs/heads/${branch}`];
    return { ok: result.ok && (ref?.ok ?? true), moved: false, error: result.error ?? ref?.error ?? null };
  } catch (error) {
    if ((error as { code?: string }).code === "UserCanceledError") return { ok: false, moved: true, error: null };
    throw error;
  }
}

export type CommitInfo = { oid: string; message: string; author: string; date: string };

/** The newest commits from `commit` in the cache, up to `depth` (a shallow cache may hold fewer). */
export async function recentCommits(gitdir: string, commit: string, depth: number): Promise<CommitInfo[]> {
  try {
    const log = await git.log({ fs, gitdir, ref: commit, depth });
    return log.map((e) => ({
      oid: e.oid,
      message: e.commit.message.trim(),
      author: e.commit.author.name,
      date: new Date(e.commit.author.timestamp * 1000).toISOString(),
    }));
  } catch {
    return [];
  }
}
