/** The local provider's file listing skips what the sync ignores, as E2B's does: the root `out/` included. */
import { expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLocalFiles } from "./files";

test("list leaves out ignored folders and the root out/, but keeps a deeper src/out/", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "local-files-"));
  try {
    for (const rel of ["index.ts", "out/index.html", "src/out/page.ts", "node_modules/dep/index.js", "src/dist/a.js"]) {
      fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), "x");
    }
    const files = createLocalFiles(dir, { uid: process.getuid!(), gid: process.getgid!() });
    try {
      expect((await files.list()).map((f) => f.path).sort()).toEqual(["index.ts", "src/out/page.ts"]);
    } finally {
      files.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
