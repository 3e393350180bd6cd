import { expect, test } from "bun:test";
import { ApiError } from "../../api/api-error";
import { checkSandboxValid } from "./check-sandbox-valid";

const token = async () => "t";

test("valid when the API says isValid true", async () => {
  const asked: string[] = [];
  const valid = await checkSandboxValid("p/1", {
    getToken: token,
    validate: async (projectId) => {
      asked.push(projectId);
      return { isValid: true };
    },
  });
  expect(valid).toBe(true);
  expect(asked).toEqual(["p/1"]);
});

test("expired when the API says isValid false", async () => {
  expect(await checkSandboxValid("p", { getToken: token, validate: async () => ({ isValid: false }) })).toBe(false);
});

test("expired without an auth token, and the API is not asked", async () => {
  let asked = false;
  const valid = await checkSandboxValid("p", {
    getToken: async () => null,
    validate: async () => {
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
  expect(await checkSandboxValid("p", { getToken: token, validate: nonOk })).toBe(false);
  expect(await checkSandboxValid("p", { getToken: token, validate: network })).toBe(false);
  expect(await checkSandboxValid("p", { getToken: async () => Promise.reject(new Error("x")), validate: network })).toBe(false);
});

test("an answer without isValid counts as expired", async () => {
  expect(await checkSandboxValid("p", { getToken: token, validate: async () => ({}) as never })).toBe(false);
});
