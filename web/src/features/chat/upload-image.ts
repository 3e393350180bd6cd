/** POST /api/upload/image (multipart: file, projectId; bearer) → the image's URL, or null when it failed. */
import { apiFetch } from "../../api/client";

export async function uploadImage(projectId: string, file: File): Promise<string | null> {
  const form = new FormData();
  form.append("file", file);
  form.append("projectId", projectId);
  try {
    const res = await apiFetch<{ url?: unknown }>("/api/upload/image", { method: "POST", body: form });
    return typeof res?.url === "string" ? res.url : null;
  } catch {
    // Spec §7: failed uploads are skipped silently.
    return null;
  }
}
