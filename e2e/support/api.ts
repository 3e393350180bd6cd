/** Calling the app's API from a browser test (to seed data as the signed-in user), and ordered clean-up. */

/** A JSON call with the user's bearer token; a non-OK answer throws with the status and body. */
export async function callApi<T>(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Runs clean-ups newest first; one failing does not stop the rest. */
export async function runCleanups(cleanups: Array<() => unknown>): Promise<void> {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (err) {
      console.error("cleanup failed:", err);
    }
  }
}
