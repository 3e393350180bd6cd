/** INSTANCE_SECRET's check: what counts as internal, what is refused (401, logged without the secret), what signs. */
import { describe, expect, test } from "bun:test";
import { createInstanceAuth, INSTANCE_HEADER, SECRET_HEADER } from "./instance-auth";
import type { Logger } from "./logger";

const SECRET = "the-shared-instance-secret";

function recordingLogger() {
  const lines: { msg: string; fields: Record<string, unknown> }[] = [];
  const log = (msg: string, fields: Record<string, unknown> = {}) => void lines.push({ msg, fields });
  return { lines, logger: { debug: log, info: log, warn: log, error: log } as unknown as Logger };
}

const request = (headers: Record<string, string>) => new Request("http://127.0.0.1/api/sandbox/p/shell", { method: "POST", headers });

describe("instance auth", () => {
  test("a public request is neither refused nor internal", () => {
    const { logger, lines } = recordingLogger();
    const auth = createInstanceAuth(SECRET, logger);
    expect(auth.refuse(request({}))).toBeNull();
    expect(auth.isInternal(request({}))).toBe(false);
    expect(lines).toEqual([]);
  });

  test("signed with the secret: internal, not refused", () => {
    const auth = createInstanceAuth(SECRET, recordingLogger().logger);
    const headers = new Headers();
    auth.sign(headers);
    const signed = request(Object.fromEntries(headers));
    expect(signed.headers.get(INSTANCE_HEADER)).toBeTruthy();
    expect(auth.refuse(signed)).toBeNull();
    expect(auth.isInternal(signed)).toBe(true);
  });

  test("a forged or missing secret answers 401 and is logged, never with the value given", async () => {
    const { logger, lines } = recordingLogger();
    const auth = createInstanceAuth(SECRET, logger);
    for (const headers of <Record<string, string>[]>[
      { [INSTANCE_HEADER]: "x", [SECRET_HEADER]: "forged-forged-forged" },
      { [INSTANCE_HEADER]: "x" },
      { [SECRET_HEADER]: `${SECRET}x` },
    ]) {
      const refused = auth.refuse(request(headers));
      expect(refused?.status).toBe(401);
      expect(((await refused!.json()) as { error: string }).error).toContain("INSTANCE_SECRET");
      expect(auth.isInternal(request(headers))).toBe(false);
    }
    expect(lines.map((l) => [l.msg, l.fields.secret])).toEqual([
      ["internal request refused: forged or missing INSTANCE_SECRET", "wrong"],
      ["internal request refused: forged or missing INSTANCE_SECRET", "missing"],
      ["internal request refused: forged or missing INSTANCE_SECRET", "wrong"],
    ]);
    expect(JSON.stringify(lines)).not.toContain("forged-forged");
  });

  test("without a secret configured nothing is internal and nothing can be signed", () => {
    const auth = createInstanceAuth(null, recordingLogger().logger);
    expect(auth.enabled).toBe(false);
    expect(auth.refuse(request({ [INSTANCE_HEADER]: "x", [SECRET_HEADER]: "anything-at-all" }))?.status).toBe(401);
    expect(() => auth.sign(new Headers())).toThrow("INSTANCE_SECRET");
  });
});
