/**
 * Chat images for the model. The message keeps the signed URLs from `POST /api/upload/image`; the model
 * gets the bytes themselves as base64 data URLs, so it can read them even when this server is not
 * reachable from the internet (a local model, a private deployment).
 */
import type { ChatCompletionContentPart } from "openai/resources/chat/completions";
import { badRequest } from "../lib/errors";
import type { ServiceContext } from "../services/context";
import { readSignedImage, type ImageSigner } from "../services/images";

const PATH = /^\/api\/upload\/image\/([0-9a-f-]{36})\/([^/?#]+)$/i;

export type ImageRef = { url: string; projectId: string; name: string; exp: string | undefined; sig: string | undefined };

/** The parts of an image URL this server signed, or null for anything else. Accepts absolute URLs too. */
export function parseImageUrl(url: string): ImageRef | null {
  let parsed: URL;
  try {
    parsed = new URL(url, "http://relative.invalid");
  } catch {
    return null;
  }
  const match = PATH.exec(parsed.pathname);
  if (!match) return null;
  return {
    url,
    projectId: match[1]!.toLowerCase(),
    name: decodeURIComponent(match[2]!),
    exp: parsed.searchParams.get("exp") ?? undefined,
    sig: parsed.searchParams.get("sig") ?? undefined,
  };
}

/**
 * Checks every attachment is an image uploaded to this project and reads it, as image parts for the
 * model. A URL that is not one of ours, another project's, or expired is a 400 before anything is saved.
 */
export async function loadImageParts(
  ctx: ServiceContext & { signer: ImageSigner },
  projectId: string,
  urls: string[],
): Promise<ChatCompletionContentPart[]> {
  const parts: ChatCompletionContentPart[] = [];
  for (const [i, url] of urls.entries()) {
    const ref = parseImageUrl(url);
    if (!ref || ref.projectId !== projectId.toLowerCase()) {
      throw badRequest(`attachments.${i}: not an image uploaded to this project (upload it with POST /api/upload/image first)`);
    }
    const image = await readSignedImage(ctx, projectId, ref.name, ref.exp, ref.sig).catch(() => {
      throw badRequest(`attachments.${i}: the image link has expired or is invalid; attach the image again`);
    });
    parts.push({ type: "image_url", image_url: { url: `data:${image.mime};base64,${Buffer.from(image.bytes).toString("base64")}` } });
  }
  return parts;
}
