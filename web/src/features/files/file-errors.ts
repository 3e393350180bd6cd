/** Toast text for a failed file call: the server's own message when it sent one, else the fallback. */
import { ApiError } from "../../api/api-error";

export function serverMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.code !== null && err.error ? err.error : fallback;
}
