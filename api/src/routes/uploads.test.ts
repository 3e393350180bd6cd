import { beforeAll, describe, expect, test } from "bun:test";
import { TINY_PNG } from "../test/images";
import { testApp, type TestUser } from "../test/test-app";

const SVG: Uint8Array<ArrayBuffer> = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp({ env: { MAX_UPLOAD_BYTES: "4096" } });
}, 60_000);

function form(bytes: Uint8Array<ArrayBuffer>, name: string, type: string, projectId: string) {
  const f = new FormData();
  f.set("file", new File([bytes], name, { type }));
  f.set("projectId", projectId);
  return f;
}
async function project(user: TestUser) {
  return (await (await user.request("POST", "/api/projects", { name: "Img" })).json()).id as string;
}

describe("image upload", () => {
  test("a PNG is stored and its signed URL serves it to a plain GET (as an <img> would)", async () => {
    const alice = t.user("alice");
    const id = await project(alice);
    const res = await alice.request("POST", "/api/upload/image", form(TINY_PNG, "shot.png", "image/png", id));
    expect(res.status).toBe(201);
    const { url } = await res.json();
    expect(url).toMatch(new RegExp(`^/api/upload/image/${id}/[0-9a-f-]{36}\\.png\\?exp=\\d+&sig=`));

    const img = await t.app.request(url); // no bearer token
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(img.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(TINY_PNG);

    const tampered = url.replace(/sig=./, (m: string) => (m.endsWith("A") ? "sig=B" : "sig=A"));
    expect((await t.app.request(tampered)).status).toBe(404);
    const expired = url.replace(/exp=\d+/, "exp=1000");
    expect((await t.app.request(expired)).status).toBe(404);
    expect((await t.app.request(url.split("?")[0]!)).status).toBe(404);
  });

  test("content decides, not the name: SVG and text named .png are refused with 415", async () => {
    const bob = t.user("bob");
    const id = await project(bob);
    const svg = await bob.request("POST", "/api/upload/image", form(SVG, "x.svg", "image/svg+xml", id));
    expect(svg.status).toBe(415);
    expect((await svg.json()).error).toContain("SVG is not accepted");
    const fake = await bob.request("POST", "/api/upload/image", form(new TextEncoder().encode("hello"), "x.png", "image/png", id));
    expect(fake.status).toBe(415);
    expect(await t.deps.store.list(`projects/${id}/uploads/`)).toEqual([]);
  });

  test("oversize images answer 413; missing fields 400; foreign projects 404; no token 401", async () => {
    const carol = t.user("carol");
    const id = await project(carol);
    const big = new Uint8Array(8192);
    big.set(TINY_PNG);
    const tooBig = await carol.request("POST", "/api/upload/image", form(big, "big.png", "image/png", id));
    expect(tooBig.status).toBe(413);

    const noFile = new FormData();
    noFile.set("projectId", id);
    expect((await carol.request("POST", "/api/upload/image", noFile)).status).toBe(400);

    const mallory = t.user("mallory");
    expect((await mallory.request("POST", "/api/upload/image", form(TINY_PNG, "a.png", "image/png", id))).status).toBe(404);
    expect((await t.app.request("/api/upload/image", { method: "POST", body: form(TINY_PNG, "a.png", "image/png", id) })).status).toBe(401);
  });
});

describe("images in chat history", () => {
  test("listed messages carry freshly signed image URLs, so old attachments keep displaying", async () => {
    const dana = t.user("dana");
    const id = await project(dana);
    const { url } = await (await dana.request("POST", "/api/upload/image", form(TINY_PNG, "a.png", "image/png", id))).json();
    const expired = url.replace(/exp=\d+/, "exp=1000");
    expect((await t.app.request(expired)).status).toBe(404);
    await t.db.sql`insert into messages (id, project_id, role, content, attachments)
                   values (${crypto.randomUUID()}, ${id}, 'user', 'look', ${t.db.sql.json([expired, "https://example.com/x.png"])})`;
    const [message] = await (await dana.request("GET", `/api/messages/${id}`)).json();
    expect(message.attachments[1]).toBe("https://example.com/x.png");
    expect(message.attachments[0]).not.toBe(expired);
    const img = await t.app.request(message.attachments[0]);
    expect(img.status).toBe(200);
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(TINY_PNG);
  });
});
