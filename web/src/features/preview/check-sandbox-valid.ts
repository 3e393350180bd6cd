/**
 * One validity check of the project's sandbox (GET /api/sandbox/{id}/validate, bearer). The sandbox counts
 * as expired when there is no auth token, when the call fails or answers non-OK, or when it answers isValid
 * false: a preview that cannot be confirmed is offered a recreate, so this never throws, it answers false.
 */
import type { SandboxValidation } from "@shared/schemas/sandbox";
import { getAuthToken } from "../../api/auth-token";
import { api } from "../../api/endpoints";

export type ValidityDeps = {
  getToken: () => Promise<string | null>;
  validate: (projectId: string) => Promise<SandboxValidation>;
};

const defaultDeps: ValidityDeps = { getToken: getAuthToken, validate: api.sandbox.validate };

export async function checkSandboxValid(projectId: string, deps: ValidityDeps = defaultDeps): Promise<boolean> {
  try {
    if (!(await deps.getToken())) return false;
    return (await deps.validate(projectId)).isValid === true;
  } catch {
    return false;
  }
}
