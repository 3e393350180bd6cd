/**
 * Adds the problem reporter's `<script src>` to an HTML page the preview proxy serves: first thing in
 * `<head>` (so it hears errors of every script after it), once, and only where the page's own Content
 * Security Policy already lets same-origin scripts run and same-origin requests go out. A page whose policy
 * forbids that is passed on untouched: the app's policy is never loosened, the reporter just stays out.
 * Bytes are handled as latin1 so a page in any ASCII-compatible charset comes out byte for byte the same
 * apart from the added tag.
 */
export const REPORTER_PATH = "/__appbuilder/report.js";
export const REPORTS_PATH = "/__appbuilder/problems";
/** The page's watch WebSocket: the proxy closes it when the page's access ends, and the page reloads. */
export const WATCH_PATH = "/__appbuilder/watch";
export const REPORTER_TAG = `<script src="${REPORTER_PATH}"></script>`;

/** How much of a streamed page is held back looking for `<head>` and a CSP `<meta>` before giving up. */
export const SCAN_LIMIT = 64 * 1024;

const HEAD = /<head(?:\s[^>]*)?>/i;
const HTML = /<html(?:\s[^>]*)?>/i;
const DOCTYPE = /<!doctype[^>]*>/i;
const META_CSP = /<meta\s[^>]*http-equiv\s*=\s*["']?content-security-policy["']?[^>]*>/gi;

/** Whether a policy lets `<script src>` from the page's own origin run and `fetch` reach it. */
export function cspAllowsReporter(policy: string): boolean {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...values] = part.trim().toLowerCase().split(/\s+/);
    if (name && !directives.has(name)) directives.set(name, values);
  }
  const allows = (names: string[]) => {
    const values = names.map((n) => directives.get(n)).find((v) => v !== undefined);
    if (!values) return true;
    // With 'strict-dynamic', 'self' and host sources are ignored: only nonces and hashes count.
    if (values.includes("'strict-dynamic'")) return false;
    return values.some((v) => v === "'self'" || v === "*" || v === "http:" || v === "https:");
  };
  return allows(["script-src-elem", "script-src", "default-src"]) && allows(["connect-src", "default-src"]);
}

function metaPolicies(html: string): string[] {
  return [...html.matchAll(META_CSP)].map((m) => /content\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(m[0])).map((c) => c?.[1] ?? c?.[2] ?? "");
}

/**
 * The page with the reporter added, or null to leave it as it is (already there, or a policy in the page's
 * `<meta>` or in `headerPolicies` forbids it).
 */
export function injectReporter(html: string, headerPolicies: string[] = []): string | null {
  if (html.includes(REPORTER_PATH)) return null;
  if (![...headerPolicies, ...metaPolicies(html)].every(cspAllowsReporter)) return null;
  const anchor = HEAD.exec(html) ?? HTML.exec(html) ?? DOCTYPE.exec(html);
  const at = anchor ? anchor.index + anchor[0].length : 0;
  return html.slice(0, at) + REPORTER_TAG + html.slice(at);
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");

/** The whole page's bytes, with the reporter, or null when unchanged. */
export function injectReporterBytes(bytes: Uint8Array, headerPolicies: string[] = []): Uint8Array | null {
  const out = injectReporter(latin1(bytes), headerPolicies);
  return out === null ? null : new Uint8Array(Buffer.from(out, "latin1"));
}

/**
 * A streamed page (no length known): holds back the start until the head is complete (or SCAN_LIMIT bytes,
 * or the end), adds the reporter there, then passes everything else through as it comes.
 */
export function injectReporterStream(body: ReadableStream<Uint8Array>, headerPolicies: string[] = []): ReadableStream<Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let done = false;
  const release = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const start = Buffer.concat(held);
    held = [];
    done = true;
    controller.enqueue(injectReporterBytes(start, headerPolicies) ?? new Uint8Array(start));
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (done) return controller.enqueue(chunk);
        held.push(chunk);
        heldBytes += chunk.byteLength;
        if (heldBytes >= SCAN_LIMIT || /<\/head\s*>|<body[\s>]/i.test(latin1(Buffer.concat(held)))) release(controller);
      },
      flush(controller) {
        if (!done) release(controller);
      },
    }),
  );
}
