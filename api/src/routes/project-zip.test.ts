import { beforeAll, describe, expect, test } from "bun:test";
import JSZip from "jszip";
import { testApp } from "../test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);

describe(`GET /api/files/{projectId}/download.zip (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("streams every file, text and binary, in a zip that imports back as the same project", async () => {
    const alice = t.user("alice");
    const project = (await (await alice.request("POST", "/api/projects", { name: "Zip me ✓" })).json()) as { id: string };
    const texts: Record<string, string> = {
      "package.json": '{ "name": "zip-me" }\n',
      "src/main.ts": "console.log('hi');\n".repeat(200),
      "docs/résumé.md": "# Ünïcode path\n",
    };
    for (const [path, content] of Object.entries(texts)) await alice.request("POST", `/api/files/${project.id}`, { path, content });
    // Binary content goes in through the file service (the API's create-by-path takes text).
    const png = Uint8Array.from({ length: 2000 }, (_, i) => (i * 89) % 256);
    const { writeFileAtPath } = await import("../services/files");
    await writeFileAtPath(t.deps, alice.uid, project.id, "public/logo.png", png);

    const res = await alice.request("GET", `/api/files/${project.id}/download.zip`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="Zip-me.zip"; filename*=UTF-8''${encodeURIComponent("Zip me ✓.zip")}`);
    const bytes = new Uint8Array(await res.arrayBuffer());

    const zip = await JSZip.loadAsync(bytes, { checkCRC32: true });
    expect(Object.keys(zip.files).sort()).toEqual(["docs/résumé.md", "package.json", "public/logo.png", "src/main.ts"]);
    for (const [path, content] of Object.entries(texts)) expect(await zip.file(path)!.async("string")).toBe(content);
    expect(await zip.file("public/logo.png")!.async("uint8array")).toEqual(png);

    const form = new FormData();
    form.append("file", new File([bytes], "zip-me.zip"));
    const imported = (await (await alice.request("POST", "/api/projects/import", form)).json()) as { id: string };
    const files = (await (await alice.request("GET", `/api/files/${imported.id}`)).json()) as { path: string; size: number }[];
    expect(files.map((f) => [f.path, f.size]).sort()).toEqual(
      [...Object.entries(texts).map(([p, c]) => [p, new TextEncoder().encode(c).length]), ["public/logo.png", 2000]].sort(),
    );
  });

  test("someone else's project is not found", async () => {
    const owner = t.user("owner");
    const project = (await (await owner.request("POST", "/api/projects", { name: "Mine" })).json()) as { id: string };
    expect((await t.user("other").request("GET", `/api/files/${project.id}/download.zip`)).status).toBe(404);
  });
});
