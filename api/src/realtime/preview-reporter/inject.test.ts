/** Where the reporter tag goes in a page, when it stays out (CSP, already there), and streamed pages. */
import { describe, expect, test } from "bun:test";
import { cspAllowsReporter, injectReporter, injectReporterBytes, injectReporterStream, REPORTER_TAG } from "./inject";

const VITE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <script type="module" src="/@vite/client"></script>
  </head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>`;

describe("injectReporter", () => {
  test("first thing in <head>, before every script of the page", () => {
    const out = injectReporter(VITE_PAGE)!;
    expect(out).toBe(VITE_PAGE.replace("<head>", `<head>${REPORTER_TAG}`));
    expect(out.indexOf(REPORTER_TAG)).toBeLessThan(out.indexOf("/@vite/client"));
  });

  test("pages without a head: after <html>, after the doctype, or at the start; <header> is not <head>", () => {
    expect(injectReporter('<html data-x="1"><body>hi</body></html>')).toBe(`<html data-x="1">${REPORTER_TAG}<body>hi</body></html>`);
    expect(injectReporter("<!DOCTYPE html><p>hi")).toBe(`<!DOCTYPE html>${REPORTER_TAG}<p>hi`);
    expect(injectReporter("<p>hi</p>")).toBe(`${REPORTER_TAG}<p>hi</p>`);
    expect(injectReporter("<header>x</header><HEAD >")).toBe(`<header>x</header><HEAD >${REPORTER_TAG}`);
  });

  test("idempotent: a page that has it already is left alone", () => {
    expect(injectReporter(injectReporter(VITE_PAGE)!)).toBeNull();
  });

  test("a Content Security Policy that would block it keeps it out; one that allows 'self' does not", () => {
    expect(cspAllowsReporter("default-src 'self'")).toBe(true);
    expect(cspAllowsReporter("script-src 'self' 'unsafe-inline'; connect-src *")).toBe(true);
    expect(cspAllowsReporter("img-src data:")).toBe(true);
    expect(cspAllowsReporter("script-src 'nonce-abc'")).toBe(false);
    expect(cspAllowsReporter("script-src 'self' 'strict-dynamic' 'nonce-abc'")).toBe(false);
    expect(cspAllowsReporter("script-src 'self'; connect-src https://api.example.com")).toBe(false);
    expect(injectReporter(VITE_PAGE, ["script-src 'nonce-r4nd'"])).toBeNull();
    const meta = `<html><head><meta http-equiv="Content-Security-Policy" content="script-src 'sha256-abc'"></head></html>`;
    expect(injectReporter(meta)).toBeNull();
    expect(injectReporter(meta.replace("'sha256-abc'", "'self'"))).toContain(REPORTER_TAG);
  });

  test("bytes in other charsets come back unchanged apart from the tag", () => {
    const page = new Uint8Array([...Buffer.from("<head><title>"), 0xe9, 0xff, ...Buffer.from("</title></head>")]);
    const out = injectReporterBytes(page)!;
    expect(Buffer.from(out).equals(Buffer.from([...Buffer.from(`<head>${REPORTER_TAG}<title>`), 0xe9, 0xff, ...Buffer.from("</title></head>")]))).toBe(true);
  });

  test("a streamed page gets it even when <head> is split across chunks, and the rest streams on", async () => {
    const chunks = ["<!doctype html><he", "ad><title>t</title></head>", "<body>", "x".repeat(100_000), "</body>"];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
        c.close();
      },
    });
    expect(await new Response(injectReporterStream(body)).text()).toBe(injectReporter(chunks.join(""))!);
  });
});
