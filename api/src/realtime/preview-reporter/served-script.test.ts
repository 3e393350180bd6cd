import { describe, expect, test } from "bun:test";
import { appOriginsOf, servedScript } from "./served-script";

describe("the script served to previews", () => {
  test("behind PUBLIC_URL the picker trusts exactly the app's origin", () => {
    const script = servedScript({ pingEveryMs: 7000, appOrigins: appOriginsOf("https://builder.example.com/some/path") });
    expect(script).toContain("var PING_EVERY_MS = 7000;");
    expect(script).toContain('var APP_ORIGINS = ["https://builder.example.com"];');
    expect(script).toContain("var LOCAL_APP = false;");
    // The reporter first (it must hear the app's first errors), then the picker.
    expect(script.indexOf("/__appbuilder/problems")).toBeLessThan(script.indexOf("app-builder:pick"));
  });

  test("a local server (no PUBLIC_URL) trusts loopback parents only", () => {
    const script = servedScript({ pingEveryMs: 10000, appOrigins: appOriginsOf(undefined) });
    expect(script).toContain("var APP_ORIGINS = [];");
    expect(script).toContain("var LOCAL_APP = true;");
  });
});
