/**
 * Reasoning written inside the answer text (`<think>…</think>`, `<thinking>…</thinking>`), as Qwen,
 * DeepSeek-R1 and other open models do when the server does not split it out. A tag may arrive cut
 * across chunks (`<thi` + `nk>`), so a possible tag at the end of a chunk is held until the next one.
 *
 * @example
 * const split = new InlineThinkingSplitter({ text: (t) => answer += t, thinking: (t) => thought += t });
 * split.push("<thi"); split.push("nk>hmm</think>Hello"); split.end(); // thought = "hmm", answer = "Hello"
 */
const OPEN = ["<think>", "<thinking>"];
const CLOSE = ["</think>", "</thinking>"];

export class InlineThinkingSplitter {
  private inside = false;
  private pending = "";
  /** A newline right after a tag is layout, not content (it may arrive in the next chunk). */
  private afterTag = false;

  constructor(private readonly out: { text(t: string): void; thinking(t: string): void }) {}

  push(delta: string): void {
    let text = this.pending + delta;
    this.pending = "";
    while (text) {
      if (this.afterTag) {
        this.afterTag = false;
        if (text.startsWith("\n")) text = text.slice(1);
        if (!text) return;
      }
      const tags = this.inside ? CLOSE : OPEN;
      const at = text.indexOf("<");
      if (at === -1) {
        this.send(text);
        return;
      }
      if (at > 0) this.send(text.slice(0, at));
      const rest = text.slice(at);
      const tag = tags.find((t) => rest.startsWith(t));
      if (tag) {
        this.inside = !this.inside;
        this.afterTag = true;
        text = rest.slice(tag.length);
        continue;
      }
      if (tags.some((t) => rest.length < t.length && t.startsWith(rest))) {
        this.pending = rest; // a tag cut by the chunk boundary: decide with the next chunk
        return;
      }
      this.send("<");
      text = rest.slice(1);
    }
  }

  /** Flushes a held partial tag (it was text after all). */
  end(): void {
    const rest = this.pending;
    this.pending = "";
    if (rest) this.send(rest);
  }

  private send(text: string): void {
    if (this.inside) this.out.thinking(text);
    else this.out.text(text);
  }
}
