import { expect, test } from "bun:test";
import { ApiError } from "../../api/api-error";
import { checkSandboxValid } from "./check-sandbox-valid";

const token = async () => "t";

test("valid when the API says isValid true", async () => {
  const paths: string[] = [];
  const valid = await checkSandboxValid("p/1", {
    getToken: token,
    get: async (path) => {
      paths.push(path);
      return { isValid: true };
    },
  });
  expect(valid).toBe(true);
  expect(paths).toEqual(["/api/sandbox/p%2F1/validate"]);
});

test("expired when the API says isValid false", async () => {
  expect(await checkSandboxValid("p", { getToken: token, get: async () => ({ isValid: false }) })).toBe(false);
});

test("expired without an auth token, and the API is not asked", async () => {
  let asked = false;
  const valid = await checkSandboxValid("p", {
    getToken: async () => null,
    get: async () => {
      asked = true;
      return { isValid: true };
    },
  });
  expect(valid).toBe(false);
  expect(asked).toBe(false);
});

test("expired when the call answers non-OK or fails", async () => {
  const nonOk = async () => {
    throw new ApiError(500, "internal", "boom", "", "Internal Server Error");
  };
  const network = async () => {
    throw new TypeError("Failed to fetch");
  };
  expect(await checkSandboxValid("p", { getToken: token, get: nonOk })).toBe(false);
  expect(await checkSandboxValid("p", { getToken: token, get: network })).toBe(false);
  expect(await checkSandboxValid("p", { getToken: async () => Promise.reject(new Error("x")), get: network })).toBe(false);
});

test("an answer without isValid counts as expired", async () => {
  expect(await checkSandboxValid("p", { getToken: token, get: async () => ({}) as never })).toBe(false);
});
