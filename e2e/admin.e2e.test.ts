/**
 * The admin page (issue 24, item 8), end to end: real Chromium, the real app with ADMIN_EMAILS, the real Auth
 * emulator. A signed-in user who is not an admin sees no Admin link and gets the not-found page at /admin; the
 * admin sees the Admin link and the users table, disables that user after confirming, and the user's next
 * request is refused with the message. Screenshot: e2e/artifacts/admin.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { callApi, runCleanups } from "./support/api";
import { newOfflineContext } from "./support/browser";
import { appDataDir } from "./support/data-dir";
import { type OwnStack, startOwnStack } from "./support/own-stack";
import { bearerToken, signInWithGoogle, uniqueEmail } from "./support/sign-in";
import { ARTIFACTS, STEP_MS } from "./support/stack";

const cleanups: Array<() => unknown> = [];
const adminEmail = uniqueEmail("admin");
const userEmail = uniqueEmail("someone");
let own: OwnStack;

beforeAll(async () => {
  own = await startOwnStack({ projectId: "demo-e2e-admin", dataDir: appDataDir("e2e-admin-", cleanups), cleanups, env: { ADMIN_EMAILS: adminEmail } });
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("admin page", () => {
  test("a user sees no Admin link and a 404 at /admin; the admin disables them, and their next request is 403", async () => {
    const url = own.app.url;
    // The user, in a context of their own.
    const userContext = await newOfflineContext(own.browser);
    const userPage = await userContext.newPage();
    userPage.setDefaultTimeout(STEP_MS);
    await signInWithGoogle(userPage, url, { email: userEmail, displayName: "Some One" });
    const userToken = await bearerToken(userPage, url);
    await userPage.getByRole("link", { name: "Projects" }).first().waitFor();
    expect(await userPage.getByRole("link", { name: "Admin" }).count()).toBe(0);
    await userPage.goto(`${url}/admin`);
    await userPage.getByText("404 Page Not Found").waitFor();

    // The admin.
    const page = own.page;
    await signInWithGoogle(page, url, { email: adminEmail, displayName: "The Admin" });
    await page.getByRole("link", { name: "Admin" }).first().click();
    await page.waitForURL("**/admin");
    const row = page.getByTestId("admin-user").filter({ hasText: userEmail });
    await row.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "admin.png"), fullPage: true });
    // No Disable on the admin's own row.
    expect(await page.getByTestId("admin-user").filter({ hasText: adminEmail }).getByRole("button", { name: "Disable" }).count()).toBe(0);
    await row.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Disable" }).click();
    await page.getByTestId("toast").filter({ hasText: "User disabled" }).waitFor();
    await row.getByText("Disabled").waitFor();

    const refused = await callApi<unknown>(url, userToken, "GET", "/api/projects").then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refused).toContain("disabled by an administrator");
    await userContext.close();
  }, 240_000);
});
