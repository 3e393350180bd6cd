/**
 * A real image for upload tests, and the upload itself as the chat composer sends it.
 *
 * @example
 * const res = await uploadImage(alice, projectId); // 201 { url }
 */
import type { TestUser } from "./test-app";

/** A 1×1 PNG: 70 bytes, small enough to fit the tests' 100-byte project limits once (and not twice). */
export const TINY_PNG: Uint8Array<ArrayBuffer> = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

/** The multipart body of POST /api/upload/image: TINY_PNG as `name`, for `projectId`. */
export function imageForm(projectId: string, name = "a.png"): FormData {
  const form = new FormData();
  form.set("file", new File([TINY_PNG], name, { type: "image/png" }));
  form.set("projectId", projectId);
  return form;
}

/** Uploads TINY_PNG to `projectId` as `user`; the response is the caller's to check. */
export function uploadImage(user: Pick<TestUser, "request">, projectId: string): Promise<Response> {
  return user.request("POST", "/api/upload/image", imageForm(projectId));
}
