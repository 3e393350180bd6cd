/**
 * Copies every object of the app's object store (S3 or the local folder, as the app's environment picks)
 * to a folder, or back: the object-store half of scripts/backup.sh and scripts/restore.sh. Each object
 * becomes `<folder>/<key>`. Keys are built by the services only (relative, '/'-separated), so they are
 * valid file paths.
 *
 * @example
 * bun scripts/objects.ts export /backups/2026-11-27/objects
 * bun scripts/objects.ts import /backups/2026-11-27/objects
 * bun scripts/objects.ts count   # prints how many objects the store holds
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { loadConfig } from "../api/src/lib/config";
import { createObjectStore } from "../api/src/storage";

const [command, folder] = process.argv.slice(2);
const store = createObjectStore(loadConfig().storage);

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

if (command === "export" && folder) {
  const keys = await store.list("");
  for (const key of keys) {
    const body = await store.get(key);
    // Deleted since it was listed (the app may be running): a backup holds what existed at its time.
    if (!body) continue;
    const file = join(folder, key);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, body);
  }
  console.log(`exported ${keys.length} objects to ${folder}`);
} else if (command === "import" && folder) {
  const files = await filesUnder(folder);
  for (const file of files) await store.put(relative(folder, file).split("\\").join("/"), new Uint8Array(await readFile(file)));
  console.log(`imported ${files.length} objects from ${folder}`);
} else if (command === "count") {
  console.log((await store.list("")).length);
} else {
  console.error("usage: bun scripts/objects.ts export|import <folder> | count");
  process.exit(2);
}
