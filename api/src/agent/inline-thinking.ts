/**
 * Reasoning written inside the answer text (`<think>…</think>`, `<thinking>…</thinking>`), as Qwen,
 * DeepSeek-R1 and other open models do when the server does not split it out. A tag may arrive cut
 * across chunks (`<thi` + `nk>`), so a possible tag at the end of a chunk is held until the next one.
 * R1-distill and QwQ chat templates put the opening tag in the prompt, so the reply is reasoning ended by a
 * lone `</think>`: with `holdStart`, the start of a reply is held (up to that many characters) until it shows
 * whether such a tag comes; if it does, what came before it was reasoning.
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
  /** The reply's start, held while it may yet turn out to be reasoning ended by a lone closing tag. */
  private probe: string | null;
  /** The reply was reasoning ended by a lone closing tag (the caller may hold longer next time). */
  sawLoneClose = false;

  constructor(
    private readonly out: { text(t: string): void; thinking(t: string): void },
    private readonly holdStart = 0,
  ) {
    this.probe = holdStart > 0 ? "" : null;
  }

  push(delta: string): void {
    if (this.probe !== null) {
      const probe = this.probe + delta;
      const close = firstTag(probe, CLOSE);
      const open = firstTag(probe, OPEN);
      if (close && (!open || close.at < open.at)) {
        this.probe = null;
        this.sawLoneClose = true;
        if (close.at > 0) this.out.thinking(probe.slice(0, close.at));
        this.afterTag = true;
        delta = probe.slice(close.at + close.tag.length);
      } else if (open || probe.length > this.holdStart) {
        this.probe = null;
        delta = probe;
      } else {
        this.probe = probe;
        return;
      }
    }
    let text = this.pending + delta;
    this.pending = "";
    while (text) {
      if (this.afterTag) {
        this.afterTag = false;
        // After a closing tag the blank lines before the answer go too.
        text = this.inside ? text.replace(/^\n/, "") : text.replace(/^\n+/, "");
        if (!text) {
          this.afterTag = !this.inside;
          return;
        }
      }
      // Outside reasoning a closing tag is a lone one (its reasoning already went out as text): it is dropped.
      const tags = this.inside ? CLOSE : [...OPEN, ...CLOSE];
      const at = text.indexOf("<");
      if (at === -1) {
        this.send(text);
        return;
      }
      if (at > 0) this.send(text.slice(0, at));
      const rest = text.slice(at);
      const tag = tags.find((t) => rest.startsWith(t));
      if (tag && !this.inside && CLOSE.includes(tag)) {
        this.sawLoneClose = true;
        this.afterTag = true;
        text = rest.slice(tag.length);
        continue;
      }
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

  /** Flushes a held start and a held partial tag (they were text after all). */
  end(): void {
    if (this.probe !== null) {
      const probe = this.probe;
      this.probe = null;
      this.push(probe);
    }
    const rest = this.pending;
    this.pending = "";
    if (rest) this.send(rest);
  }

  /** Releases the held start as it stands (the reply was cut; what arrived is shown). */
  release(): void {
    this.end();
  }

  private send(text: string): void {
    if (this.inside) this.out.thinking(text);
    else this.out.text(text);
  }
}

function firstTag(text: string, tags: string[]): { at: number; tag: string } | null {
  let best: { at: number; tag: string } | null = null;
  for (const tag of tags) {
    const at = text.indexOf(tag);
    if (at !== -1 && (!best || at < best.at)) best = { at, tag };
  }
  return best;
}
