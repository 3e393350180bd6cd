/**
 * Signing in through the Auth emulator's Google popup, as a visitor would, and helpers for what tests need
 * afterwards: a unique e-mail per test user, and the bearer token the SPA sends (for seeding through the API).
 */
import type { Page } from "playwright-core";

export type TestUser = { email: string; displayName?: string; photoURL?: string };

let counter = 0;

/** A fresh address, so each test signs in as a brand-new user with no projects. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${++counter}@example.com`;
}

/**
 * Opens /login and clicks Continue with Google until the emulator's popup opens. Tries again when the SPA
 * reports 'Sign in failed' instead: on a loaded machine the emulator's helper iframe can answer after the SDK
 * has given up.
 */
export async function openSignInPopup(page: Page, appUrl: string): Promise<Page> {
  const ATTEMPTS = 5;
  for (let attempt = 1; ; attempt++) {
    await page.goto(`${appUrl}/login`);
    const opened = page.waitForEvent("popup", { timeout: 45_000 });
    const failed = page.getByTestId("toast").filter({ hasText: "Sign in failed" }).waitFor({ timeout: 45_000 });
    opened.catch(() => {});
    failed.catch(() => {});
    await page.getByRole("button", { name: "Continue with Google" }).click();
    const popup = await Promise.race([opened, failed.then(() => null)]);
    if (popup) return popup;
    const said = await page
      .getByTestId("toast")
      .first()
      .innerText()
      .catch(() => "(no toast text)");
    console.warn(`[e2e] sign-in attempt ${attempt} did not open the popup: ${said.replace(/\s+/g, " ")}`);
    if (attempt >= ATTEMPTS) throw new Error(`The sign-in popup did not open in ${ATTEMPTS} attempts (last: ${said})`);
    await page.waitForTimeout(1000 * attempt);
  }
}

/** From /login through the popup to /projects. Without a user the popup auto-generates one. */
export async function signInWithGoogle(page: Page, appUrl: string, user?: TestUser): Promise<void> {
  const popup = await openSignInPopup(page, appUrl);
  await popup.getByText("Add new account").click();
  if (user) {
    await popup.locator("#email-input").fill(user.email);
    if (user.displayName) await popup.locator("#display-name-input").fill(user.displayName);
    if (user.photoURL) await popup.locator("#profile-photo-input").fill(user.photoURL);
  } else {
    await popup.getByText("Auto-generate user information").click();
  }
  await popup.locator("#sign-in").click();
  await page.waitForURL("**/projects", { timeout: 45_000 });
}

/** The bearer token the SPA sends with its API calls (reloads /projects to catch one). */
export async function bearerToken(page: Page, appUrl: string): Promise<string> {
  const request = page.waitForRequest((r) => r.url().endsWith("/api/projects") && Boolean(r.headers().authorization));
  await page.goto(`${appUrl}/projects`);
  const header = (await request).headers().authorization ?? "";
  return header.replace(/^Bearer /, "");
}
