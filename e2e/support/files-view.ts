/**
 * The Files view's tests share a seeded project and a few ways to look at the page: a file's row, the view
 * opened on a project, a full-page screenshot named files-<name>.png.
 *
 * @example
 * await seedFiles(api, projectId); // the six text files of SEED and public/logo.bin (binary)
 * await openFiles(page, app.url, projectId);
 * await fileRow(page, "src/App.tsx").waitFor();
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS } from "./stack";

export const APP_TSX = 'export function App() {\n  return "Hello from the seed";\n}\n';
// The API takes text; a NUL byte makes the server store (and later serve) the file as binary.
export const BINARY_TEXT = "PNG\r\n\u001a\n\u0000\u0001\u0002\u0003";
export const SEED: Record<string, string> = {
  "src/App.tsx": APP_TSX,
  "src/index.css": "body { margin: 0; }\n",
  "README.md": "# Files E2E\n\nSeeded by the test.\n",
  "package.json": '{ "name": "files-e2e", "private": true }\n',
  "notes/big.txt": "x".repeat(1536),
  "scripts/run.sh": "#!/bin/sh\necho hi\n",
};

/** Writes SEED and public/logo.bin into the project through the API. */
export async function seedFiles(api: (method: string, path: string, body?: unknown) => Promise<unknown>, projectId: string): Promise<void> {
  for (const [path, content] of Object.entries(SEED)) await api("POST", `/api/files/${projectId}`, { path, content });
  await api("POST", `/api/files/${projectId}`, { path: "public/logo.bin", content: BINARY_TEXT });
}

export const fileRow = (page: Page, path: string) => page.locator(`[data-testid="file-row"][data-path="${path}"]`);

export const filesShot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `files-${name}.png`), fullPage: true });

export async function openFiles(page: Page, appUrl: string, projectId: string): Promise<void> {
  await page.goto(`${appUrl}/project/${projectId}/files`);
  await page.getByRole("heading", { name: "Files", exact: true }).waitFor();
}
