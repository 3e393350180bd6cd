import { expect, test } from "bun:test";
import { parsePublicConfig } from "./config";

const good = {
  auth: { mode: "emulator", projectId: "demo-x", apiKey: "k", authDomain: "d", emulatorUrl: "http://127.0.0.1:9099" },
  modelConfigured: false,
};

test("a well-formed config passes, extra fields dropped", () => {
  expect(parsePublicConfig({ ...good, extra: 1 })).toEqual(good as never);
  expect(parsePublicConfig({ ...good, auth: { ...good.auth, mode: "firebase", emulatorUrl: null } }).auth.emulatorUrl).toBeNull();
});

test("each malformed field is refused", () => {
  expect(() => parsePublicConfig(null)).toThrow("not an object");
  expect(() => parsePublicConfig({ ...good, auth: "x" })).toThrow("auth is not an object");
  expect(() => parsePublicConfig({ ...good, auth: { ...good.auth, mode: "other" } })).toThrow("auth.mode");
  expect(() => parsePublicConfig({ ...good, auth: { ...good.auth, apiKey: 1 } })).toThrow("auth.apiKey");
  expect(() => parsePublicConfig({ ...good, auth: { ...good.auth, emulatorUrl: 5 } })).toThrow("auth.emulatorUrl");
  expect(() => parsePublicConfig({ ...good, modelConfigured: "yes" })).toThrow("modelConfigured");
});
