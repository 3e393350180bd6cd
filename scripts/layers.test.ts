import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { checkLayers, importsOf, judge, judgeVendor, layerOf } from "./layers";

describe("layer rules", () => {
  test("the repository keeps them", () => {
    const broken = checkLayers(resolve(import.meta.dir, ".."));
    expect(broken.map((v) => `${v.from} → ${v.specifier}: ${v.rule}`)).toEqual([]);
  });

  test("each rule of ARCHITECTURE.md is caught when broken", () => {
    const edge = (from: string, to: string, typeOnly = false) => judge({ from, to, specifier: to, typeOnly });
    expect(edge("api/src/routes/files.ts", "api/src/db/files")?.rule).toContain("routes parse input and call services");
    expect(edge("api/src/agent/loop.ts", "api/src/services/files")?.rule).toContain("the agent is an engine");
    expect(edge("api/src/agent/loop.ts", "api/src/db/messages", true)?.rule).toContain("the agent is an engine");
    expect(edge("api/src/sandbox/local/files.ts", "api/src/services/files")?.rule).toContain("sandbox providers know nothing above them");
    expect(edge("shared/src/file-path.ts", "api/src/lib/errors")?.rule).toContain("shared is imported by api and web");
    expect(edge("web/src/app.tsx", "api/src/app")?.rule).toContain("the web knows the API only by its types");
    expect(edge("api/src/services/files.ts", "api/src/test/test-db")?.rule).toContain("never imports test helpers");
    // …and allowed edges pass.
    expect(edge("api/src/routes/files.ts", "api/src/services/files")).toBeNull();
    expect(edge("web/src/api/endpoints.ts", "api/src/app", true)).toBeNull();
    expect(edge("api/src/services/chat-runs/index.ts", "api/src/agent/ports", true)).toBeNull();
    expect(edge("api/src/routes/files.test.ts", "api/src/test/test-app")).toBeNull();
  });

  test("each vendor SDK is imported by its one wrapping file", () => {
    expect(judgeVendor("api/src/services/files.ts", "@aws-sdk/client-s3")?.rule).toContain("api/src/storage/s3.ts only");
    expect(judgeVendor("web/src/features/auth/auth-provider.tsx", "firebase/auth")?.rule).toContain("web/src/features/auth/firebase.ts only");
    expect(judgeVendor("api/src/agent/loop.ts", "openai/resources/chat/completions", true)?.rule).toContain("model-client.ts only");
    expect(judgeVendor("api/src/auth/jwt.ts", "jose")).toBeNull();
    expect(judgeVendor("api/src/agent/model-client.test.ts", "openai")).toBeNull();
    expect(judgeVendor("api/src/routes/files.ts", "hono")).toBeNull();
  });

  test("imports are read with their type-only marks", () => {
    const source = [
      `import type { A } from "../db/a";`,
      `import { type B, type C } from "./b";`,
      `import { d, type E } from "./d";`,
      `export { f } from "@shared/f";`,
      `import "./side-effect";`,
      `const lazy = () => import("./lazy");`,
    ].join("\n");
    expect(importsOf(source)).toEqual([
      { specifier: "../db/a", typeOnly: true },
      { specifier: "./b", typeOnly: true },
      { specifier: "./d", typeOnly: false },
      { specifier: "@shared/f", typeOnly: false },
      { specifier: "./side-effect", typeOnly: false },
      { specifier: "./lazy", typeOnly: false },
    ]);
  });

  test("files are placed in their layer by folder", () => {
    expect(layerOf("api/src/services/sandboxes/sync.ts")).toBe("api:services");
    expect(layerOf("api/src/server.ts")).toBe("api:root");
    expect(layerOf("web/src/app.tsx")).toBe("web");
    expect(layerOf("shared/src/schemas/file.ts")).toBe("shared");
    expect(layerOf("bench/support/wrk.ts")).toBeNull();
  });
});
