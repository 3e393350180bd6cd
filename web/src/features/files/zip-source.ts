/**
 * Where the Files download's ZIP is built: in the browser from the download map, or streamed by the server
 * (`download.zip`). Decided from the file list the page already has, so no extra request is needed.
 */
import type { ProjectFile } from "@shared/schemas/file";

/**
 * The browser's zip holds the project several times over at once (the JSON map with binaries in base64,
 * jszip's copy, the finished zip) and deflates on the page's main thread: at 20 MB that is about 100 MB of
 * memory and a second or more of frozen page, which is where it stops being the better choice. Many small
 * files cost jszip per entry too; 200 is several times a typical starter project, so those stay in the
 * browser. The server's stream holds a few pieces at a time whatever the size.
 */
export const BROWSER_ZIP_MAX_FILES = 200;
export const BROWSER_ZIP_MAX_BYTES = 20 * 1024 * 1024;

export type ZipSource = "browser" | "server";

export function zipSourceFor(files: readonly Pick<ProjectFile, "size">[]): ZipSource {
  if (files.length > BROWSER_ZIP_MAX_FILES) return "server";
  const bytes = files.reduce((total, file) => total + file.size, 0);
  return bytes > BROWSER_ZIP_MAX_BYTES ? "server" : "browser";
}
