import { expect, test } from "bun:test";
import { ApiError, describeError } from "./api-error";

test("an API error body gives the readable message and code; the message keeps the status form", async () => {
  const res = new Response(JSON.stringify({ error: "Project not found", code: "not_found" }), { status: 404, statusText: "Not Found" });
  const err = await ApiError.fromResponse(res);
  expect(err.status).toBe(404);
  expect(err.code).toBe("not_found");
  expect(err.error).toBe("Project not found");
  expect(err.message).toBe('404: {"error":"Project not found","code":"not_found"}');
  expect(describeError(err)).toBe("Project not found");
});

test("a body that is not ours, or none, falls back to the text, then the status text", async () => {
  const html = await ApiError.fromResponse(new Response("<h1>Bad gateway</h1>", { status: 502, statusText: "Bad Gateway" }));
  expect(html.code).toBeNull();
  expect(html.error).toBe("<h1>Bad gateway</h1>");
  const empty = await ApiError.fromResponse(new Response(null, { status: 503, statusText: "Service Unavailable" }));
  expect(empty.message).toBe("503: Service Unavailable");
  expect(empty.error).toBe("Service Unavailable");
});
