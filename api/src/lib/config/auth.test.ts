import { describe, expect, test } from "bun:test";
import { configFailure as failure } from "../../test/config-failure";
import { loadConfig as load } from "./index";

describe("sign-in configuration", () => {
  test("an existing emulator is used, not started", () => {
    expect(load({ FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9199", FIREBASE_PROJECT_ID: "demo-x" }).auth).toMatchObject({
      mode: "emulator",
      projectId: "demo-x",
      emulatorHost: "127.0.0.1:9199",
      startLocalEmulator: false,
    });
  });

  test("bad or contradictory settings name the variable", () => {
    expect(failure({ FIREBASE_PROJECT_ID: "real-proj" })).toContain("FIREBASE_API_KEY");
    expect(failure({ FIREBASE_PROJECT_ID: "demo-x", FIREBASE_API_KEY: "k" })).toContain("FIREBASE_AUTH_EMULATOR_HOST");
    expect(failure({ FIREBASE_AUTH_EMULATOR_HOST: "http://127.0.0.1:9099" })).toContain("FIREBASE_AUTH_EMULATOR_HOST");
    // Emulator mode beside a real project, or with an emulator elsewhere on the network, is refused.
    for (const env of <Record<string, string>[]>[
      { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", FIREBASE_PROJECT_ID: "my-real-project" },
      { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", FIREBASE_PROJECT_ID: "demo-x", FIREBASE_API_KEY: "AIza" },
    ]) {
      const message = failure(env);
      expect(message).toContain("FIREBASE_AUTH_EMULATOR_HOST");
      expect(message).toMatch(/FIREBASE_PROJECT_ID|FIREBASE_API_KEY/);
    }
    expect(failure({ FIREBASE_AUTH_EMULATOR_HOST: "10.0.0.5:9099", FIREBASE_PROJECT_ID: "demo-x" })).toMatch(
      /FIREBASE_AUTH_EMULATOR_HOST=10\.0\.0\.5:9099 is not a loopback[\s\S]*FIREBASE_PROJECT_ID/,
    );
    expect(load({ FIREBASE_AUTH_EMULATOR_HOST: "localhost:9099", FIREBASE_PROJECT_ID: "demo-x" }).auth.mode).toBe("emulator");
    expect(failure({ HOST: "0.0.0.0" })).toContain("HOST");
  });
});
