/** File sizes for people: B, KB, MB or GB, base 1024, at most 2 decimals. */
const UNITS = ["B", "KB", "MB", "GB"] as const;

/**
 * @example
 * formatFileSize(0)          // "0 B"
 * formatFileSize(1536)       // "1.5 KB"
 * formatFileSize(5 * 1024 ** 3) // "5 GB"
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 B";
  let unit = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  let value = Number((bytes / 1024 ** unit).toFixed(2));
  // 1023.999 KB rounds to 1024 KB: show it as 1 MB instead.
  if (value >= 1024 && unit < UNITS.length - 1) {
    unit += 1;
    value = Number((bytes / 1024 ** unit).toFixed(2));
  }
  return `${value} ${UNITS[unit]}`;
}
