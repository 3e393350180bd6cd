import { describe, expect, test } from "bun:test";
import { loadConfig } from "../lib/config";
import { localAppRedirect } from "./local-app-host";

const local = loadConfig({ PORT: "3000" });
/** `dest` null: a request with no Sec-Fetch-Dest at all (curl, a script's fetch). */
const nav = (host: string, url = "http://x/projects?a=1", dest: string | null = "document", method = "GET") =>
  localAppRedirect(local, method, host, dest ?? undefined, url);

describe("the app's local host", () => {
  test("a browser opening http://localhost:<PORT> is sent to app.localhost, same port, path and query", () => {
    expect(nav("localhost:3000")).toBe("http://app.localhost:3000/projects?a=1");
    expect(nav("LOCALHOST:3000", "http://x/")).toBe("http://app.localhost:3000/");
    expect(nav("localhost")).toBe("http://app.localhost/projects?a=1");
  });

  test("the app's own host, scripts, API clients, 127.0.0.1 and previews are served where they are", () => {
    expect(nav("app.localhost:3000")).toBeNull();
    expect(nav("localhost:3000", undefined, null)).toBeNull(); // curl, fetch from a script
    expect(nav("localhost:3000", undefined, "empty")).toBeNull(); // the SPA's own fetch()
    expect(nav("localhost:3000", undefined, "document", "POST")).toBeNull();
    expect(nav("127.0.0.1:3000")).toBeNull();
    expect(nav("5173-abcdefgh12345678.app.localhost:3000")).toBeNull();
    expect(nav("evil.localhost:3000")).toBeNull();
  });

  test("never with PUBLIC_URL or a PREVIEW_DOMAIN of one's own: production is unchanged", () => {
    const publicUrl = loadConfig({ PUBLIC_URL: "http://localhost:8080" });
    expect(localAppRedirect(publicUrl, "GET", "localhost:8080", "document", "http://localhost:8080/")).toBeNull();
    const ownDomain = loadConfig({ PREVIEW_DOMAIN: "preview.test" });
    expect(localAppRedirect(ownDomain, "GET", "localhost:3000", "document", "http://localhost:3000/")).toBeNull();
  });
});
