/**
 * The Files download: the server's path → content map zipped in the browser and saved as
 * `{projectName}-source.zip`. Binary files arrive base64-encoded and are listed in `binary`.
 */
import type { DownloadResponse } from "@shared/schemas/responses";

export function sourceZipName(projectName: string): string {
  return `${projectName}-source.zip`;
}

/** The ZIP's bytes; jszip is loaded only when someone downloads. */
export async function buildSourceZip(download: DownloadResponse): Promise<Uint8Array> {
  const { default: JSZip } = await import("jszip");
  const zip = new JSZip();
  const binary = new Set(download.binary ?? []);
  for (const [path, content] of Object.entries(download.files)) {
    zip.file(path, content, { base64: binary.has(path), createFolders: false });
  }
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", compressionOptions: { level: 6 } });
}
