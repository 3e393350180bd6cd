import { beforeAll, describe, expect, test } from "bun:test";
import { grantedAccess } from "../test/access";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    await writeFileAtPath(t.deps, grantedAccess(alice.uid, project.id), "public/logo.png", png);

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

  test("large files stream through the deflater or as stored blocks, with data descriptors that unzip and JSZip accept", async () => {
    const bob = t.user("bob");
    const project = (await (await bob.request("POST", "/api/projects", { name: "Big zip" })).json()) as { id: string };
    const { writeFileAtPath } = await import("../services/files");
    const bigText = "export const line = 'é € 😀';\n".repeat(40_000); // compresses: deflated as it streams
    const bigBinary = new Uint8Array(randomBytes(700_001)); // does not: stored blocks, no deflate cost
    const small = "tiny\n";
    await writeFileAtPath(t.deps, grantedAccess(bob.uid, project.id), "src/big.ts", bigText);
    await writeFileAtPath(t.deps, grantedAccess(bob.uid, project.id), "assets/noise.bin", bigBinary);
    await writeFileAtPath(t.deps, grantedAccess(bob.uid, project.id), "small.txt", small);

    const res = await bob.request("GET", `/api/files/${project.id}/download.zip`);
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    const bytes = new Uint8Array(Buffer.concat(chunks));
    // Sent in pieces, never a whole large file in one chunk.
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(64 * 1024);
    expect(bytes.length).toBeLessThan(bigBinary.length + new TextEncoder().encode(bigText).length / 4);

    const zip = await JSZip.loadAsync(bytes, { checkCRC32: true });
    expect(await zip.file("src/big.ts")!.async("string")).toBe(bigText);
    expect(Buffer.from(await zip.file("assets/noise.bin")!.async("uint8array")).equals(Buffer.from(bigBinary))).toBe(true);
    expect(await zip.file("small.txt")!.async("string")).toBe(small);

    // Info-ZIP's unzip checks every CRC and the local headers against the central directory.
    const file = join(mkdtempSync(join(tmpdir(), "zip-test-")), "big.zip");
    writeFileSync(file, bytes);
    const tested = Bun.spawnSync(["unzip", "-t", file]);
    expect(tested.stdout.toString()).toContain("No errors detected");
    expect(tested.exitCode).toBe(0);
  });

  test("someone else's project is not found", async () => {
    const owner = t.user("owner");
    const project = (await (await owner.request("POST", "/api/projects", { name: "Mine" })).json()) as { id: string };
    expect((await t.user("other").request("GET", `/api/files/${project.id}/download.zip`)).status).toBe(404);
  });
});
