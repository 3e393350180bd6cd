/**
 * Publishing projects that build in a real local sandbox: the react template (Vite) built and served with
 * hashed assets, a broken build that leaves the live deployment alone and shows its log, a symlink out of
 * the output folder refused, a new site name taken by another site while the build ran, a second publish
 * refused while one builds, and the size and time limits (the live deployment serving throughout).
 */
import { grantedAccess } from "../../test/access";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PublishResult } from "@shared/schemas/publish";
import { localSuiteGate } from "../../test/local-sandbox-support";
import { deploymentsAfterBuild, publishInstance, type PublishInstance } from "../../test/publish-support";
import type { TestUser } from "../../test/test-app";
import { dbLabel } from "../../test/versions-support";
import { createLocalStore } from "../../storage/local";
import { writeFileAtPath } from "../files";

if (await localSuiteGate("publish build", { sameOnEveryDatabase: true })) {
  describe(`publish with a build in the sandbox (${dbLabel()})`, () => {
    let a: PublishInstance;
    let b: PublishInstance;
    let alice: TestUser;

    beforeAll(async () => {
      const store = createLocalStore(mkdtempSync(join(tmpdir(), "publish-store-")));
      a = await publishInstance({ store, env: { PUBLISH_BUILD_TIMEOUT_S: "120", SANDBOX_DISK_MB: "0" } });
      b = await publishInstance({ store });
      alice = a.user("alice");
    }, 120_000);
    afterAll(async () => {
      await a?.deps.sandboxes.shutdown();
      await a?.close();
      await b?.close();
    });

    const newProject = async (name: string) => {
      const res = await alice.request("POST", "/api/projects", { name });
      return ((await res.json()) as { id: string }).id;
    };
    const publish = async (projectId: string, body: object = {}) =>
      (await (await alice.request("POST", `/api/projects/${projectId}/publish`, body)).json()) as PublishResult;

    test("a Vite React project is built and served: index.html, hashed assets immutable, deep links, 404s, a second instance; a broken build leaves it live", async () => {
      const projectId = await newProject("React Site");
      await a.deps.sandboxes.applyTemplate(grantedAccess(alice.uid, projectId), "react");
      const slug = `react-${crypto.randomUUID().slice(0, 8)}`;
      const started = await publish(projectId, { slug });
      expect(started.status).toBe("building");
      const [live] = await deploymentsAfterBuild(alice, projectId);
      expect(live!.buildLog).toContain("vite");
      expect(live!.status).toBe("live");

      const index = await a.site(slug, "/");
      expect(index.status).toBe(200);
      const html = await index.text();
      expect(html).toContain('<div id="root">');
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await a.site(slug, script!);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(await asset.text()).toContain("createRoot");
      expect(await (await a.site(slug, "/some/client/route")).text()).toBe(html);
      expect((await a.site(slug, "/assets/nope-Abcdefgh.js")).status).toBe(404);
      expect(await (await b.site(slug, script!)).text()).toContain("createRoot");

      // A broken build: the live deployment stays, the failure shows its log.
      await writeFileAtPath(a.deps, grantedAccess(alice.uid, projectId), "src/App.tsx", "export default function App( { return <div> }\n");
      await publish(projectId);
      const [failed, stillLive] = await deploymentsAfterBuild(alice, projectId);
      expect(failed!.status).toBe("failed");
      expect(failed!.buildLog).toContain("App.tsx");
      expect(failed!.buildLog).toContain("The build failed");
      expect(stillLive!.id).toBe(live!.id);
      expect(stillLive!.status).toBe("live");
      expect(await (await a.site(slug, "/")).text()).toBe(html);
    }, 600_000);

    test("a symlink out of the output folder refuses the upload; a new name taken during the build fails it; a second publish while one builds answers 409; output over MAX_DEPLOYMENT_BYTES and a build past PUBLISH_BUILD_TIMEOUT_S fail, the live site serving on", async () => {
      const projectId = await newProject("Sneaky");
      const build = "mkdir -p dist && echo '<p>hi</p>' > dist/index.html && ln -sf /etc/passwd dist/leak.txt && ln -sf index.html dist/home.html";
      await writeFileAtPath(a.deps, grantedAccess(alice.uid, projectId), "package.json", JSON.stringify({ name: "sneaky", scripts: { build } }));
      await publish(projectId);
      const [refused] = await deploymentsAfterBuild(alice, projectId);
      expect(refused!.status).toBe("failed");
      expect(refused!.buildLog).toContain("leak.txt is a symlink to /etc/passwd, outside dist: refused");

      // Links inside the folder are fine: the target's bytes under the link's name.
      const inside = "rm -rf dist && mkdir -p dist && echo '<p>hi</p>' > dist/index.html && ln -sf index.html dist/home.html";
      await writeFileAtPath(a.deps, grantedAccess(alice.uid, projectId), "package.json", JSON.stringify({ name: "sneaky", scripts: { build: inside } }));
      const ok = await publish(projectId);
      const [published] = await deploymentsAfterBuild(alice, projectId);
      expect(published!.buildLog).not.toContain("refused");
      expect(published!.status).toBe("live");
      const slug = new URL(ok.url).hostname.split(".")[0]!;
      expect(await (await a.site(slug, "/home.html")).text()).toBe("<p>hi</p>\n");

      // Renamed while another site takes the new name before this build is done: the build fails saying
      // so, and the site keeps its name and its live deployment.
      const wanted = `contested-${crypto.randomUUID().slice(0, 8)}`;
      const slowBuild = "sleep 3 && rm -rf dist && mkdir -p dist && echo '<p>renamed</p>' > dist/index.html";
      await writeFileAtPath(a.deps, grantedAccess(alice.uid, projectId), "package.json", JSON.stringify({ name: "sneaky", scripts: { build: slowBuild } }));
      expect((await publish(projectId, { slug: wanted })).status).toBe("building");
      const rival = await newProject("Rival");
      await writeFileAtPath(a.deps, grantedAccess(alice.uid, rival), "index.html", "<p>rival</p>");
      expect((await publish(rival, { slug: wanted })).status).toBe("building");
      const [lost, kept] = await deploymentsAfterBuild(alice, projectId);
      expect(lost!.status).toBe("failed");
      expect(lost!.buildLog).toContain(`The site name "${wanted}" was taken by another site while this one was building`);
      expect(kept!.id).toBe(published!.id);
      expect(kept!.status).toBe("live");
      expect(await (await a.site(slug, "/home.html")).text()).toBe("<p>hi</p>\n");
      expect(await (await a.site(wanted, "/")).text()).toBe("<p>rival</p>");

      const slow = await publishInstance({ env: { PUBLISH_BUILD_TIMEOUT_S: "3", MAX_DEPLOYMENT_BYTES: "100000", SANDBOX_DISK_MB: "0" } });
      try {
        const bob = slow.user("bob");
        const p = ((await (await bob.request("POST", "/api/projects", { name: "Slow" })).json()) as { id: string }).id;
        const setBuild = (build: string) =>
          writeFileAtPath(slow.deps, grantedAccess(bob.uid, p), "package.json", JSON.stringify({ name: "slow", scripts: { build } }));
        const bobPublish = async () => (await (await bob.request("POST", `/api/projects/${p}/publish`, {})).json()) as PublishResult;
        await setBuild("mkdir -p dist && echo '<p>first</p>' > dist/index.html");
        const first = await bobPublish();
        const [live] = await deploymentsAfterBuild(bob, p);
        expect(live!.status).toBe("live");
        const bobSlug = new URL(first.url).hostname.split(".")[0]!;
        expect(await (await slow.site(bobSlug, "/")).text()).toBe("<p>first</p>\n");

        await setBuild("mkdir -p dist && head -c 200000 /dev/zero > dist/big.bin && echo '<p>big</p>' > dist/index.html");
        await bobPublish();
        const [tooBig, liveStill] = await deploymentsAfterBuild(bob, p);
        expect(tooBig!.status).toBe("failed");
        expect(tooBig!.buildLog).toContain("dist holds 195.3 KB, over the 97.7 KB a deployment may hold (MAX_DEPLOYMENT_BYTES)");
        expect(liveStill!.id).toBe(live!.id);
        expect(await (await slow.site(bobSlug, "/")).text()).toBe("<p>first</p>\n");

        await setBuild("sleep 30");
        expect((await bob.request("POST", `/api/projects/${p}/publish`, {})).status).toBe(200);
        // Still building (for 3 s at least): a second publish is refused, and says why.
        const again = await bob.request("POST", `/api/projects/${p}/publish`, {});
        expect(again.status).toBe(409);
        expect(((await again.json()) as { error: string }).error).toContain("already being published");
        const [timedOut, , liveAfter] = await deploymentsAfterBuild(bob, p);
        expect(timedOut!.status).toBe("failed");
        expect(timedOut!.buildLog).toContain("PUBLISH_BUILD_TIMEOUT_S");
        expect(liveAfter!.id).toBe(live!.id);
        expect(liveAfter!.status).toBe("live");
        expect(await (await slow.site(bobSlug, "/")).text()).toBe("<p>first</p>\n");
      } finally {
        await slow.deps.sandboxes.shutdown();
        await slow.close();
      }
    }, 600_000);
  });
}
