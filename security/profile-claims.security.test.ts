/**
 * Attacks replayed on POST /api/auth/sync: (1) a signed-in user claims someone else's e-mail address and
 * name in the body; (2) a user stores a `javascript:` photo URL (in the body, or in an emulator token's
 * `picture` claim) that other screens would render as a link or image source.
 * Safe outcome: the stored profile is the verified token's, and only http(s) photo URLs are ever stored.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { emulatorToken } from "../api/src/test/emulator-tokens";
import { TEST_PROJECT_ID, testApp } from "../api/src/test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);

const sync = (token: string, body: unknown) =>
  t.app.request("/api/auth/sync", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const stored = async (uid: string) => (await t.db.sql`select email, display_name, photo_url from users where id = ${uid}`)[0];

describe("the profile comes from the token", () => {
  test("e-mail, name and photo in the body are ignored; the token's are stored", async () => {
    const mallory = t.user("mallory");
    const res = await sync(mallory.token, {
      id: mallory.uid,
      email: "ceo@victim.example",
      displayName: "The CEO",
      photoURL: "javascript:alert(document.cookie)",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: mallory.uid, email: "mallory@example.com", displayName: "mallory", photoURL: null });
    expect(await stored(mallory.uid)).toEqual({ email: "mallory@example.com", display_name: "mallory", photo_url: null });
  });

  test("a javascript: (or data:) photo URL in the token is not stored; an https one is", async () => {
    for (const picture of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "/relative.png"]) {
      const uid = `eve-${crypto.randomUUID()}`;
      const res = await sync(emulatorToken(TEST_PROJECT_ID, { uid, email: "eve@example.com", name: "Eve", picture }), { id: uid });
      expect(res.status).toBe(200);
      expect({ picture, stored: (await stored(uid))!.photo_url }).toEqual({ picture, stored: null });
    }
    const uid = `ann-${crypto.randomUUID()}`;
    await sync(emulatorToken(TEST_PROJECT_ID, { uid, name: "Ann", picture: "https://lh3.googleusercontent.com/a/photo.png" }), { id: uid });
    expect((await stored(uid))!.photo_url).toBe("https://lh3.googleusercontent.com/a/photo.png");
  });

  test("the first-use row (made by any authenticated call) drops a javascript: picture too", async () => {
    const uid = `zed-${crypto.randomUUID()}`;
    const token = emulatorToken(TEST_PROJECT_ID, { uid, name: "Zed", picture: "javascript:alert(1)" });
    const res = await t.app.request("/api/projects", { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect((await stored(uid))!.photo_url).toBeNull();
  });
});
