/**
 * Members for route tests: a project of `owner` with `editor` and `viewer` invited by the real route and active
 * after they sign in (POST /api/auth/sync, which takes up invitations to a verified e-mail).
 */
import type { TestUser } from "./test-app";

/** The test users' e-mail, as test-app mints their tokens (`<name>@example.com`). */
export const emailOf = (user: TestUser) => `${user.uid.slice(0, -37)}@example.com`;

export async function signIn(user: TestUser): Promise<void> {
  const res = await user.request("POST", "/api/auth/sync", { id: user.uid });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
}

export async function addMember(owner: TestUser, projectId: string, user: TestUser, role: "editor" | "viewer"): Promise<void> {
  const res = await owner.request("POST", `/api/projects/${projectId}/members`, { email: emailOf(user), role });
  if (res.status !== 201) throw new Error(`invite answered ${res.status}: ${await res.text()}`);
  await signIn(user);
}

export async function sharedProject(owner: TestUser, members: { editor?: TestUser; viewer?: TestUser }, name = "Shared"): Promise<string> {
  const res = await owner.request("POST", "/api/projects", { name });
  const id = ((await res.json()) as { id: string }).id;
  if (members.editor) await addMember(owner, id, members.editor, "editor");
  if (members.viewer) await addMember(owner, id, members.viewer, "viewer");
  return id;
}
