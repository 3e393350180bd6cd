/** POST /api/upload/image (multipart: file, projectId; bearer) → the image's URL, or null when it failed. */
import { api } from "../../api/endpoints";

export async function uploadImage(projectId: string, file: File): Promise<string | null> {
  try {
    return (await api.images.upload(projectId, file)).url;
  } catch {
    // A failed upload is skipped: the message is sent without that image rather than failing as a whole.
    return null;
  }
}
