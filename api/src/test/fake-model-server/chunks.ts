/** Splitting text into the chunks a streamed reply sends, and the pause between steps. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function split(text: string, size: number): string[] {
  if (text.length === 0) return [""];
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}
