/** Which entries of a repository become project files, and which are skipped with a reason. */
import { expect, test } from "bun:test";
import { isLfsPointer, selectRepoFiles } from "./repo-files";

test("symlinks, submodules, .git contents and '..' are skipped and listed; ignored folders are left out quietly", () => {
  const entry = (path: string, mode = "100644", type: "blob" | "commit" = "blob") => ({ path, mode, oid: "0".repeat(40), type });
  const { kept, skipped } = selectRepoFiles([
    entry("src/app.ts"),
    entry("link", "120000"),
    entry("vendor/lib", "160000", "commit"),
    entry("sub/.git/config"),
    entry("a/../b.txt"),
    entry("node_modules/x/index.js"),
    entry("dist/bundle.js"),
    entry("out/index.html"),
    entry("src/out/kept.ts"),
  ]);
  expect(kept.map((e) => e.path)).toEqual(["src/app.ts", "src/out/kept.ts"]);
  expect(skipped).toEqual([
    { path: "link", reason: "symbolic link" },
    { path: "vendor/lib", reason: "submodule" },
    { path: "sub/.git/config", reason: ".git contents" },
    { path: "a/../b.txt", reason: "path leaves the project" },
  ]);
});

test("Git LFS pointer files are recognised", () => {
  const pointer = new TextEncoder().encode("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12345\n");
  expect(isLfsPointer(pointer)).toBe(true);
  expect(isLfsPointer(new TextEncoder().encode("hello"))).toBe(false);
});
