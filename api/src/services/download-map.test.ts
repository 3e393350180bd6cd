/**
 * The streamed download map on the real database and a local store: small and large files, text and
 * binary, come back byte for byte through JSON.parse, whatever piece edges fall inside them.
 */
import { grantedAccess } from "../test/access";
import { beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { serviceContext } from "../test/service-context";
import { downloadProject, streamDownloadMap } from "./download-map";
import { writeFileAtPath } from "./files";
import { createProject } from "./projects";

let ctx: Awaited<ReturnType<typeof serviceContext>>;
beforeAll(async () => {
  ctx = await serviceContext();
}, 60_000);

describe("the download map", () => {
  test("large and small files, text and binary, round-trip exactly; binary paths are listed", async () => {
    const uid = await ctx.newUser("dora");
    const { id } = await createProject(ctx, uid, { name: "Map" });
    // Multi-byte characters (2, 3 and 4 bytes) at every offset, so piece edges fall inside them.
    const bigText = 'ab é € 😀 "quoted" \\ \n\t\u0001 '.repeat(40_000);
    const bigBinary = new Uint8Array(randomBytes(700_001)); // not a multiple of 3
    // Text for its first 600 KB, then one invalid byte: binary, though the first pieces looked like text.
    const lateBinary = Buffer.concat([Buffer.from("x".repeat(600_000)), Buffer.from([0xff]), Buffer.from("tail")]);
    const written: Record<string, Uint8Array | string> = {
      "small.txt": "hello\n",
      "small.bin": new Uint8Array([0x89, 0x50, 0, 1]),
      "big.txt": bigText,
      "big.bin": bigBinary,
      "late.bin": new Uint8Array(lateBinary),
      ["__proto__"]: "not a prototype",
    };
    for (const [path, content] of Object.entries(written)) await writeFileAtPath(ctx, grantedAccess(uid, id), path, content);

    const map = await downloadProject(ctx, grantedAccess(uid, id));
    expect(map.filesCount).toBe(6);
    expect(map.binary).toEqual(["big.bin", "late.bin", "small.bin"]);
    expect(map.files["small.txt"]).toBe("hello\n");
    expect(map.files["big.txt"]).toBe(bigText);
    expect(Object.getOwnPropertyDescriptor(map.files, "__proto__")?.value).toBe("not a prototype");
    expect(Buffer.from(map.files["big.bin"]!, "base64").equals(Buffer.from(bigBinary))).toBe(true);
    expect(Buffer.from(map.files["late.bin"]!, "base64").equals(lateBinary)).toBe(true);
    expect(Buffer.from(map.files["small.bin"]!, "base64")).toEqual(Buffer.from([0x89, 0x50, 0, 1]));
  });

  test("a large file goes out in pieces: no chunk of the stream is near the file's size", async () => {
    const uid = await ctx.newUser("ed");
    const { id } = await createProject(ctx, uid, { name: "Pieces" });
    await writeFileAtPath(ctx, grantedAccess(uid, id), "big.bin", new Uint8Array(randomBytes(3 << 20)));
    await writeFileAtPath(ctx, grantedAccess(uid, id), "big.txt", "y".repeat(3 << 20));
    const reader = (await streamDownloadMap(ctx, grantedAccess(uid, id))).getReader();
    let largest = 0;
    let total = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      largest = Math.max(largest, r.value.length);
      total += r.value.length;
    }
    expect(total).toBeGreaterThan(7 << 20);
    expect(largest).toBeLessThanOrEqual(128 * 1024);
  });
});
