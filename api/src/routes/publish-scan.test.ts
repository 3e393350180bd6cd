/**
 * The secret scan before a deployment goes live, over HTTP: a project secret's value pasted into a client file
 * blocks the publish, naming the file and the rule, and the live site stays as it was; a credential in a known
 * format (an AWS access key ID) is found the same way; publishing again with `{"allowFindings": true}` goes
 * live, and the deployment list shows the findings it went live with.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deploymentsAfterBuild, newSiteProject, publish, publishInstance, type PublishInstance } from "../test/publish-support";
import type { TestUser } from "../test/test-app";

// Built from parts so this file itself holds no credential a scanner would flag.
const AWS_KEY_ID = ["AKIA", "Q3EGRT7WQL5XMN2P"].join("");

describe("the secret scan before going live", () => {
  let a: PublishInstance;
  let alice: TestUser;
  const tag = crypto.randomUUID().slice(0, 8);

  beforeAll(async () => {
    a = await publishInstance();
    alice = a.user("alice");
  }, 60_000);
  afterAll(() => a?.close());

  const writeFile = async (projectId: string, path: string, content: string) => {
    const files = (await (await alice.request("GET", `/api/files/${projectId}`)).json()) as { id: string; path: string }[];
    const id = files.find((f) => f.path === path)!.id;
    expect((await alice.request("PATCH", `/api/files/${id}/content`, { content })).status).toBe(200);
  };

  test("a secret value pasted into a client file blocks the publish, naming the file and the rule; the live site stays", async () => {
    const slug = `scan-${tag}`;
    const value = `wx-live-${crypto.randomUUID()}`;
    const projectId = await newSiteProject(alice, "Weather", { "index.html": "<h1>weather v1</h1>", "app.js": "console.log('v1');" });
    expect((await alice.request("PUT", `/api/projects/${projectId}/secrets/WEATHER_KEY`, { value })).status).toBe(201);
    expect((await publish(alice, projectId, { slug })).status).toBe(200);
    expect((await deploymentsAfterBuild(alice, projectId))[0]!.status).toBe("live");

    await writeFile(projectId, "app.js", `fetch("https://api.weather.test/today?key=${value}");`);
    await writeFile(projectId, "index.html", "<h1>weather v2</h1>");
    expect((await publish(alice, projectId)).status).toBe(200);
    const [failed, live] = await deploymentsAfterBuild(alice, projectId);
    expect(failed!.status).toBe("failed");
    expect(failed!.buildLog).toContain("app.js:1: project-secret: the value of the project secret WEATHER_KEY");
    expect(failed!.buildLog).not.toContain(value);
    expect(failed!.findings).toEqual([{ file: "app.js", rule: "project-secret", line: 1, message: "the value of the project secret WEATHER_KEY" }]);
    expect(failed!.findingsAllowed).toBe(false);
    expect(live!.status).toBe("live");
    expect(await (await a.site(slug, "/")).text()).toContain("weather v1");
    expect((await a.site(slug, "/app.js")).status).toBe(200);
    expect(await (await a.site(slug, "/app.js")).text()).not.toContain(value);

    // Publishing anyway goes live, and the deployment says what it went live with.
    expect((await publish(alice, projectId, { allowFindings: true })).status).toBe(200);
    const [allowed] = await deploymentsAfterBuild(alice, projectId);
    expect(allowed!.status).toBe("live");
    expect(allowed!.findingsAllowed).toBe(true);
    expect(allowed!.findings?.map((f) => `${f.file} ${f.rule}`)).toEqual(["app.js project-secret"]);
    expect(allowed!.buildLog).toContain("Publishing anyway");
    expect(await (await a.site(slug, "/")).text()).toContain("weather v2");
  });

  test("a credential in a known format (an AWS access key ID) blocks the publish, naming the file and the rule", async () => {
    const projectId = await newSiteProject(alice, "Uploader", {
      "index.html": '<script src="/assets/upload.js"></script>',
      "assets/upload.js": `const s3 = new S3({ accessKeyId: "${AWS_KEY_ID}" });`,
    });
    expect((await publish(alice, projectId, { slug: `aws-${tag}` })).status).toBe(200);
    const [failed] = await deploymentsAfterBuild(alice, projectId);
    expect(failed!.status).toBe("failed");
    expect(failed!.buildLog).toContain("assets/upload.js:1: @secretlint/secretlint-rule-aws");
    expect(failed!.buildLog).not.toContain(AWS_KEY_ID);
    expect((await a.site(`aws-${tag}`, "/")).status).toBe(404);
  });

  test("a clean project publishes, scanned, with no findings recorded", async () => {
    const projectId = await newSiteProject(alice, "Clean", { "index.html": "<h1>clean</h1>" });
    expect((await publish(alice, projectId, { slug: `clean-${tag}` })).status).toBe(200);
    const [live] = await deploymentsAfterBuild(alice, projectId);
    expect(live!.status).toBe("live");
    expect(live!.buildLog).toContain("Scanned 1 file for secrets: none found");
    expect(live!.findings).toBeUndefined();
  });
});
