import { describe, expect, test } from "bun:test";
import { configFailure as failure } from "../../test/config-failure";
import { loadConfig as load } from "./index";

describe("sandbox configuration", () => {
  test("TERMINAL_IDLE_TIMEOUT_S: 15 minutes by default, seconds when set, 0 for never, nonsense refused", () => {
    expect(load({}).terminalIdleMs).toBe(900_000);
    expect(load({ TERMINAL_IDLE_TIMEOUT_S: "60" }).terminalIdleMs).toBe(60_000);
    expect(load({ TERMINAL_IDLE_TIMEOUT_S: "0" }).terminalIdleMs).toBe(0);
    expect(failure({ TERMINAL_IDLE_TIMEOUT_S: "soon" })).toContain("TERMINAL_IDLE_TIMEOUT_S");
    expect(failure({ TERMINAL_IDLE_TIMEOUT_S: "-5" })).toContain("TERMINAL_IDLE_TIMEOUT_S");
  });

  test("SANDBOX_TEMPLATE_CACHE_DIR: unset means the data folder's own; set, an absolute path the provider uses", async () => {
    expect(load({}).sandboxTemplateCacheDir).toBeNull();
    expect(load({ SANDBOX_TEMPLATE_CACHE_DIR: "/srv/cache" }).sandboxTemplateCacheDir).toBe("/srv/cache");
    expect(load({ SANDBOX_TEMPLATE_CACHE_DIR: "rel/cache" }).sandboxTemplateCacheDir).toBe(`${process.cwd()}/rel/cache`);
  });
});
