/**
 * Attacks replayed on project file paths through the API:
 * - a name disguised with a bidirectional override ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf"),
 *   invisible characters, look-alike letters ("pаckage.json" with a Cyrillic а) or look-alike slashes and dots;
 * - a file named "__proto__", which vanished from the project download (it set the map's prototype);
 * - a file and a folder at the same path ("a" and "a/b"), which broke sync and ZIP export.
 * Safe outcome: disguised names answer 400 naming the character, "__proto__" downloads like any file, and
 * the second of a file/folder pair answers 409 with a message.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { testApp } from "../api/src/test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);

async function project(user: ReturnType<typeof t.user>) {
  return (await (await user.request("POST", "/api/projects", { name: "Paths" })).json()) as { id: string };
}

describe("file paths", () => {
  test("bidi controls, invisible characters and look-alikes are refused with a reason", async () => {
    const alice = t.user("alice");
    const p = await project(alice);
    const disguised: [string, RegExp][] = [
      ["invoice\u202Efdp.exe", /bidirectional control character \(U\+202E\)/],
      ["src/\u2066x\u2069.ts", /bidirectional/],
      ["pack\u200Bage.json", /invisible character \(U\+200B\)/],
      ["\uFEFFindex.html", /invisible/],
      ["p\u0430ckage.json", /mixes Latin with Cyrillic/],
      ["src\u2215..\u2215..\u2215etc\u2215passwd", /look-alike of '\/'/],
      ["a\u2024\u2024/x", /look-alike/],
      ["read\u00A0me.md", /unusual space \(U\+00A0\)/],
    ];
    for (const [path, reason] of disguised) {
      const res = await alice.request("POST", `/api/files/${p.id}`, { path, content: "x" });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect((await res.json()).error).toMatch(reason);
    }
    // Plain non-Latin names stay legal.
    for (const path of ["docs/日本語.md", "Привет/мир.txt", "naïve café.txt", "emoji 😀/ok.txt"]) {
      expect({ path, status: (await alice.request("POST", `/api/files/${p.id}`, { path, content: "x" })).status }).toEqual({ path, status: 201 });
    }
    expect((await (await alice.request("GET", `/api/files/${p.id}`)).json()).length).toBe(4);
  });

  test('a file named "__proto__" survives the download', async () => {
    const bob = t.user("bob");
    const p = await project(bob);
    for (const path of ["__proto__", "constructor", "src/__proto__", "ok.txt"]) {
      expect((await bob.request("POST", `/api/files/${p.id}`, { path, content: `content of ${path}` })).status).toBe(201);
    }
    const res = await bob.request("GET", `/api/files/${p.id}/download`);
    expect(res.status).toBe(200);
    const body = JSON.parse(await res.text());
    expect(body.filesCount).toBe(4);
    expect(Object.keys(body.files).sort()).toEqual(["__proto__", "constructor", "ok.txt", "src/__proto__"]);
    expect(Object.getOwnPropertyDescriptor(body.files, "__proto__")?.value).toBe("content of __proto__");
  });

  test("a file and a folder of the same path cannot both exist (409), whichever comes first", async () => {
    const carol = t.user("carol");
    const p = await project(carol);
    expect((await carol.request("POST", `/api/files/${p.id}`, { path: "src/app", content: "a file" })).status).toBe(201);
    const inside = await carol.request("POST", `/api/files/${p.id}`, { path: "src/app/main.ts", content: "x" });
    expect(inside.status).toBe(409);
    expect((await inside.json()).error).toBe("src/app is a file, so src/app/main.ts cannot be created inside it as a folder.");

    expect((await carol.request("POST", `/api/files/${p.id}`, { path: "lib/util.ts", content: "x" })).status).toBe(201);
    const over = await carol.request("POST", `/api/files/${p.id}`, { path: "lib", content: "x" });
    expect(over.status).toBe(409);
    expect((await over.json()).error).toBe("lib is a folder (it holds lib/util.ts); a file cannot have the same path as a folder.");

    // A rename into the same trap is refused too; a rename of a file to a path under its own old name is fine.
    const files = (await (await carol.request("GET", `/api/files/${p.id}`)).json()) as { id: string; path: string }[];
    const util = files.find((f) => f.path === "lib/util.ts")!;
    expect((await carol.request("PATCH", `/api/files/${util.id}/rename`, { newPath: "src/app/util.ts" })).status).toBe(409);
    const app = files.find((f) => f.path === "src/app")!;
    expect((await carol.request("PATCH", `/api/files/${app.id}/rename`, { newPath: "src/app/index.ts" })).status).toBe(200);
    // Prefix look-alikes are not clashes: "lib2" beside the folder "lib".
    expect((await carol.request("POST", `/api/files/${p.id}`, { path: "lib2", content: "x" })).status).toBe(201);
  });
});
