import { describe, expect, test } from "bun:test";
import { configFailure as failure } from "../../test/config-failure";
import { loadConfig as load } from "./index";

describe("limits configuration", () => {
  test("MAX_SANDBOXES_PER_USER: 3 by default, a whole number when set, 0 for no cap, nonsense refused", () => {
    expect(load({}).limits.maxSandboxesPerUser).toBe(3);
    expect(load({ MAX_SANDBOXES_PER_USER: "5" }).limits.maxSandboxesPerUser).toBe(5);
    expect(load({ MAX_SANDBOXES_PER_USER: "0" }).limits.maxSandboxesPerUser).toBe(0);
    expect(failure({ MAX_SANDBOXES_PER_USER: "two" })).toContain("MAX_SANDBOXES_PER_USER");
  });
});
