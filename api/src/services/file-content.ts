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

/**
 * Whether content read piece by piece is text by `asText`'s rule, without holding it whole: stops at the
 * first NUL or invalid sequence (for most binary files, the first piece).
 */
export async function isTextStream(pieces: AsyncIterable<Uint8Array>): Promise<boolean> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for await (const piece of pieces) {
      if (piece.includes(0)) return false;
      decoder.decode(piece, { stream: true });
    }
    decoder.decode(); // a sequence cut off at the end is invalid too
    return true;
  } catch {
    return false;
  }
}
