/**
 * The one way the SPA hands a file to the browser as a download (the Files ZIP, the Preview's source JSON).
 *
 * @example
 * saveDownload(new Blob([json], { type: "application/json" }), "demo-source.json");
 */
export function saveDownload(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
