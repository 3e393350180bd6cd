/**
 * What a provider's file watcher last knew of each file: a signature (whatever the provider can read cheaply,
 * such as inode, size and modification time). The provider records the signature its own write left, so the
 * watch event that write causes is dropped as an echo instead of reported as a change made inside; a change
 * is reported once however many events it makes.
 *
 * @example
 * const known = new FileSignatures();
 * known.set("a.txt", "1:3:1700000000000"); // our own write
 * known.isNews("a.txt", "1:3:1700000000000"); // false: its echo
 * known.isNews("a.txt", "1:5:1700000000500"); // true: a command changed it (remembered from now)
 */
export class FileSignatures {
  private readonly sigs: Map<string, string>;

  constructor(initial: Iterable<readonly [string, string]> = []) {
    this.sigs = new Map(initial);
  }

  /** Our own write (or move) left `path` with `sig`: the event it causes is no news. */
  set(path: string, sig: string): void {
    this.sigs.set(path, sig);
  }

  /** Whether `path` seen with `sig` is a change not yet known (neither our own write nor already reported); remembers it. */
  isNews(path: string, sig: string): boolean {
    if (this.sigs.get(path) === sig) return false;
    this.sigs.set(path, sig);
    return true;
  }

  /** Forgets `path` and every path under it; returns the paths it knew. */
  forgetUnder(path: string): string[] {
    const gone = [...this.sigs.keys()].filter((p) => p === path || p.startsWith(`${path}/`));
    for (const p of gone) this.sigs.delete(p);
    return gone;
  }

  /** What was known under `from` is now under `to` (a rename); paths `keep` refuses are forgotten. */
  move(from: string, to: string, keep: (path: string) => boolean = () => true): void {
    for (const [p, sig] of [...this.sigs]) {
      if (p !== from && !p.startsWith(`${from}/`)) continue;
      this.sigs.delete(p);
      const moved = to + p.slice(from.length);
      if (keep(moved)) this.sigs.set(moved, sig);
    }
  }
}
