import { expect, test } from "bun:test";
import { ApiError } from "../../api/api-error";
import { serverMessage } from "./file-errors";

test("the API's readable message wins", async () => {
  const err = await ApiError.fromResponse(new Response(JSON.stringify({ error: "A file already exists at a.ts.", code: "conflict" }), { status: 409 }));
  expect(serverMessage(err, "Failed to rename file")).toBe("A file already exists at a.ts.");
});

test("anything else (network failure, a proxy's HTML page) gives the fallback", async () => {
  const html = await ApiError.fromResponse(new Response("<h1>Bad gateway</h1>", { status: 502 }));
  expect(serverMessage(html, "Failed to save file")).toBe("Failed to save file");
  expect(serverMessage(new TypeError("Failed to fetch"), "Failed to delete file")).toBe("Failed to delete file");
  expect(serverMessage(undefined, "Failed to load file content")).toBe("Failed to load file content");
});
