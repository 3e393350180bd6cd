import { describe, expect, test } from "bun:test";
import { configFailure as failure } from "../../test/config-failure";
import { loadConfig as load } from "./index";

describe("sites configuration", () => {
  test("SITES_DOMAIN unset: <slug>.sites.localhost:<PORT> locally, sites.<host> of PUBLIC_URL behind one", () => {
    expect(load({}).sites).toMatchObject({ domain: "sites.localhost", scheme: "http", portSuffix: ":3000" });
    expect(load({ PORT: "8080" }).sites).toMatchObject({ domain: "sites.localhost", scheme: "http", portSuffix: ":8080" });
    expect(load({ PUBLIC_URL: "https://builder.example.com" }).sites).toMatchObject({ domain: "sites.builder.example.com", scheme: "https", portSuffix: "" });
    expect(load({ PUBLIC_URL: "http://builder.test:8443" }).sites).toMatchObject({ domain: "sites.builder.test", scheme: "http", portSuffix: ":8443" });
    expect(load({ SITES_DOMAIN: "Pages.Example.COM:444", PUBLIC_URL: "https://builder.example.com" }).sites).toMatchObject({
      domain: "pages.example.com",
      scheme: "https",
      portSuffix: ":444",
    });
  });

  test("the limits: 100 MB, 300 s and 10 kept by default; set values read as given", () => {
    expect(load({}).sites).toMatchObject({ maxDeploymentBytes: 100 * 1024 * 1024, buildTimeoutMs: 300_000, keep: 10 });
    expect(load({ MAX_DEPLOYMENT_BYTES: "5000", PUBLISH_BUILD_TIMEOUT_S: "7", DEPLOYMENTS_KEEP: "2" }).sites).toMatchObject({
      maxDeploymentBytes: 5000,
      buildTimeoutMs: 7000,
      keep: 2,
    });
  });

  test("bad values are refused with a message naming the variable", () => {
    for (const [name, value] of [
      ["SITES_DOMAIN", "https://sites.example.com"],
      ["SITES_DOMAIN", "sites.example.com/x"],
      ["MAX_DEPLOYMENT_BYTES", "0"],
      ["MAX_DEPLOYMENT_BYTES", "lots"],
      ["PUBLISH_BUILD_TIMEOUT_S", "-5"],
      ["PUBLISH_BUILD_TIMEOUT_S", "1.5"],
      ["DEPLOYMENTS_KEEP", "0"],
    ] as const) {
      expect(failure({ [name]: value })).toContain(name);
    }
    // A site shares no origin with the app nor with previews.
    const own = failure({ SITES_DOMAIN: "builder.example.com", PUBLIC_URL: "https://builder.example.com" });
    expect(own).toContain("SITES_DOMAIN");
    expect(own).toContain("the app's own host");
    const preview = failure({ SITES_DOMAIN: "preview.example.com", PREVIEW_DOMAIN: "preview.example.com" });
    expect(preview).toContain("SITES_DOMAIN");
    expect(preview).toContain("preview domain");
  });
});
