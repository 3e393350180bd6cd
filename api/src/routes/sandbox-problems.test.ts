/** GET and DELETE /api/sandbox/{projectId}/problems through the real app: the list, owner-checked, cleared. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Problem } from "@shared/schemas/problems";
import { problemListSchema } from "@shared/schemas/responses";
import { setProjectSandbox } from "../db/project-sandbox";
import { reportFromPreview } from "../services/problems";
import { testApp } from "../test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);
afterAll(async () => {
  await t?.deps.sandboxes.shutdown();
});

describe("/api/sandbox/{projectId}/problems", () => {
  test("lists the project's problems for its owner only, and DELETE clears them", async () => {
    const alice = t.user("alice");
    const bob = t.user("bob");
    const { id } = (await (await alice.request("POST", "/api/projects", { name: "Broken" })).json()) as { id: string };
    expect(await (await alice.request("GET", `/api/sandbox/${id}/problems`)).json()).toEqual([]);

    await setProjectSandbox(t.deps.sql, id, "routesandbox0001", null);
    await reportFromPreview(t.deps, "routesandbox0001", [
      { kind: "error", message: "Uncaught TypeError: x is undefined", stack: "TypeError: x is undefined\n    at App (http://p/src/App.tsx:4:9)" },
    ]);

    const res = await alice.request("GET", `/api/sandbox/${id}/problems`);
    expect(res.status).toBe(200);
    const problems: Problem[] = problemListSchema.parse(await res.json());
    expect(problems).toMatchObject([{ source: "browser", message: "Uncaught TypeError: x is undefined", file: "src/App.tsx", line: 4, count: 1 }]);

    for (const method of ["GET", "DELETE"]) {
      const other = await bob.request(method, `/api/sandbox/${id}/problems`);
      expect(other.status).toBe(404);
      expect(await other.json()).toMatchObject({ code: "not_found" });
    }
    expect((await t.app.request(`/api/sandbox/${id}/problems`)).status).toBe(401);
    expect((await alice.request("GET", "/api/sandbox/not-a-uuid/problems")).status).toBe(404);

    expect((await alice.request("DELETE", `/api/sandbox/${id}/problems`)).status).toBe(200);
    expect(await (await alice.request("GET", `/api/sandbox/${id}/problems`)).json()).toEqual([]);
  });
});
