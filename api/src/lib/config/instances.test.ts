/** INSTANCE_SECRET: required with a shared database and local sandboxes, long enough; INTERNAL_URL a URL. */
import { describe, expect, test } from "bun:test";
import { configFailure as failure } from "../../test/config-failure";
import { loadConfig as load } from "./index";

const shared = { DATABASE_URL: "postgres://db/app", SECRETS_KEY: Buffer.alloc(32, 7).toString("base64") };

describe("INSTANCE_SECRET and INTERNAL_URL", () => {
  test("DATABASE_URL with local sandboxes and no INSTANCE_SECRET stops start-up, naming it and why", () => {
    const message = failure(shared);
    expect(message).toContain("INSTANCE_SECRET is not set but DATABASE_URL is, with local sandboxes");
    expect(message).toContain("openssl rand -hex 32");
  });

  test("not needed by the embedded default, nor with E2B sandboxes", () => {
    expect(load({}).instances).toEqual({ internalUrl: null, secret: null });
    expect(load({ ...shared, SANDBOX_PROVIDER: "e2b", E2B_API_KEY: "e2b_x" }).instances.secret).toBeNull();
  });

  test("a short secret is refused; a good one and INTERNAL_URL are taken", () => {
    expect(failure({ ...shared, INSTANCE_SECRET: "short" })).toContain("INSTANCE_SECRET must be at least 16 characters");
    const c = load({ ...shared, INSTANCE_SECRET: "0123456789abcdef0123", INTERNAL_URL: "http://app-2:3000/" });
    expect(c.instances).toEqual({ internalUrl: "http://app-2:3000", secret: "0123456789abcdef0123" });
    expect(failure({ INTERNAL_URL: "not a url" })).toContain("INTERNAL_URL");
  });
});
