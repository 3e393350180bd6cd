/**
 * One validity check of the project's sandbox (GET /api/sandbox/{id}/validate, bearer). Spec §4: the
 * sandbox counts as expired when there is no auth token, when the call fails or answers non-OK, or when it
 * answers isValid false — so this never throws, it answers false.
 */
import type { SandboxValidation } from "@shared/schemas/sandbox";
import { apiFetch } from "../../api/client";
import { getAuthToken } from "../../api/auth-token";

export type ValidityDeps = {
  getToken: () => Promise<string | null>;
  get: (path: string) => Promise<SandboxValidation>;
};

const defaultDeps: ValidityDeps = { getToken: getAuthToken, get: (path) => apiFetch<SandboxValidation>(path) };

export async function checkSandboxValid(projectId: string, deps: ValidityDeps = defaultDeps): Promise<boolean> {
  try {
    if (!(await deps.getToken())) return false;
    const answer = await deps.get(`/api/sandbox/${encodeURIComponent(projectId)}/validate`);
    return answer?.isValid === true;
  } catch {
    return false;
  }
}
