/** POST /api/upload/image (multipart: file, projectId; bearer) → the image's URL, or null when it failed. */
import { api } from "../../api/endpoints";

export async function uploadImage(projectId: string, file: File): Promise<string | null> {
  try {
    return (await api.images.upload(projectId, file)).url;
  } catch {
    // The spec: failed uploads are skipped silently.
    return null;
  }
}
