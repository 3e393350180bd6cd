/** Every route that names a project or file answers another user exactly as if it did not exist. */
import { beforeAll, describe, expect, test } from "bun:test";
import { TINY_PNG } from "../test/images";
import { testApp } from "../test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);

describe("owner checks", () => {
  test("a second user gets 404 on every route naming the first user's project or file, and changes nothing", async () => {
    const owner = t.user("owner");
    const intruder = t.user("intruder");
    const project = await (await owner.request("POST", "/api/projects", { name: "Secret" })).json();
    const file = await (await owner.request("POST", `/api/files/${project.id}`, { path: "secret.txt", content: "s3cret" })).json();
    const missingProject = crypto.randomUUID();
    const missingFile = crypto.randomUUID();

    const png = new FormData();
    png.set("file", new File([TINY_PNG], "a.png"));
    png.set("projectId", project.id);

    const routes = (pid: string, fid: string): [string, string, unknown?][] => [
      ["GET", `/api/projects/${pid}`],
      ["DELETE", `/api/projects/${pid}`],
      ["GET", `/api/messages/${pid}`],
      ["GET", `/api/projects/${pid}/model`],
      ["PUT", `/api/projects/${pid}/model`, { model: "gpt-4o-mini" }],
      ["GET", `/api/projects/${pid}/context`],
      ["GET", `/api/files/${pid}`],
      ["POST", `/api/files/${pid}`, { path: "x.txt", content: "pwned" }],
      ["GET", `/api/files/${pid}/download`],
      ["GET", `/api/files/${pid}/${fid}`],
      ["PATCH", `/api/files/${fid}/content`, { content: "pwned" }],
      ["PATCH", `/api/files/${fid}/rename`, { newPath: "pwned.txt" }],
      ["DELETE", `/api/files/${fid}`],
    ];

    for (const [method, path, body] of routes(project.id, file.id)) {
      const foreign = await intruder.request(method, path, body);
      const missing = await intruder.request(method, path.replace(project.id, missingProject).replace(file.id, missingFile), body);
      expect(foreign.status, `${method} ${path}`).toBe(404);
      // Same answer as for something that does not exist: nothing reveals that it does.
      expect(await foreign.json()).toEqual(await missing.json());
    }
    expect((await intruder.request("POST", "/api/upload/image", png)).status).toBe(404);
    expect(await (await intruder.request("GET", "/api/projects")).json()).toEqual([]);

    // The owner's data is exactly as it was.
    const files = await (await owner.request("GET", `/api/files/${project.id}`)).json();
    expect(files).toEqual([file]);
    expect((await (await owner.request("GET", `/api/files/${project.id}/${file.id}`)).json()).content).toBe("s3cret");
    expect(await t.deps.store.list(`projects/${project.id}/uploads/`)).toEqual([]);
  });
});
