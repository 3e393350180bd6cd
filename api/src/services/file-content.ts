/** Telling text from binary content, so the editor never opens (and corrupts) a binary file. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The text of `bytes`, or null when they are not UTF-8 text (invalid UTF-8 or a NUL byte). */
export function asText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
