/**
 * Sandbox ids: 128 random bits as 26 lowercase base32 characters. Unguessable, and safe as a DNS label
 * (preview hosts are `<port>-<id>.<domain>`) and as a file or namespace name.
 *
 * @example
 * newSandboxId(); // "k3v7q2…" (26 characters, a-z and 2-7)
 */
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

export function newSandboxId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(17));
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}
