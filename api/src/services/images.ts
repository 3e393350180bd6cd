/**
 * Chat image uploads. Only real raster images are accepted (sniffed from the bytes, never the name);
 * SVG is refused because it can carry script. An `<img>` cannot send a bearer token, so the returned
 * URL is signed with a server secret and expires. Each upload is recorded with its size, which counts toward
 * the project's MAX_PROJECT_BYTES; one never attached to a sent message is deleted after a day
 * (upload-sweep.ts).
 */
import { fileTypeFromBuffer } from "file-type";
import { downscaleForModel } from "./image-downscale";
import * as uploads from "../db/uploads";
import { badRequest, notFound, tooLarge, unsupportedMedia } from "../lib/errors";
import { projectPrefix, type ServiceContext } from "./context";
import { checkProjectLimits } from "./files";
import type { ProjectAccess } from "./access";

const ALLOWED = new Map([
  ["image/png", "png"],
  ["image/jpeg", "jpg"],
  ["image/gif", "gif"],
  ["image/webp", "webp"],
  ["image/avif", "avif"],
]);
const MIME_BY_EXT = new Map([...ALLOWED].map(([mime, ext]) => [ext, mime]));
export const IMAGE_URL_TTL_SECONDS = 7 * 24 * 3600;
const NAME = /^[0-9a-f-]{36}\.(png|jpg|gif|webp|avif)$/;

export type ImageSigner = {
  sign(projectId: string, name: string, expiresAt: number): Promise<string>;
  verify(projectId: string, name: string, expiresAt: number, signature: string): Promise<boolean>;
};

export function createImageSigner(secret: string): ImageSigner {
  const key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  const payload = (projectId: string, name: string, expiresAt: number) => new TextEncoder().encode(`${projectId}/${name}/${expiresAt}`);
  return {
    async sign(projectId, name, expiresAt) {
      const mac = await crypto.subtle.sign("HMAC", await key, payload(projectId, name, expiresAt));
      return Buffer.from(mac).toString("base64url");
    },
    async verify(projectId, name, expiresAt, signature) {
      const mac = Buffer.from(signature, "base64url");
      return crypto.subtle.verify("HMAC", await key, mac, payload(projectId, name, expiresAt));
    },
  };
}

const imageKey = (projectId: string, name: string) => `${projectPrefix(projectId)}uploads/${name}`;

export async function signedImageUrl(signer: ImageSigner, projectId: string, name: string, now = Date.now()): Promise<string> {
  const expiresAt = Math.floor(now / 1000) + IMAGE_URL_TTL_SECONDS;
  const sig = await signer.sign(projectId, name, expiresAt);
  return `/api/upload/image/${projectId}/${name}?exp=${expiresAt}&sig=${sig}`;
}

export async function uploadImage(
  ctx: ServiceContext & { signer: ImageSigner; maxBytes: number },
  access: ProjectAccess,
  file: File,
): Promise<{ url: string }> {
  const { projectId } = access;
  if (file.size === 0) throw badRequest("The image file is empty.");
  if (file.size > ctx.maxBytes) {
    throw tooLarge(`The image is ${(file.size / 1048576).toFixed(1)} MB; the limit is ${(ctx.maxBytes / 1048576).toFixed(1)} MB.`);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(bytes);
  const ext = type && ALLOWED.get(type.mime);
  if (!ext) throw unsupportedMedia("Only PNG, JPEG, GIF, WebP or AVIF images can be attached (SVG is not accepted).");
  await checkProjectLimits(ctx, projectId, null, bytes.length, { newFile: false });
  const name = `${crypto.randomUUID()}.${ext}`;
  // Row first: an object without a row would be counted by nothing and never swept.
  await uploads.insertUpload(ctx.sql, { projectId, name, size: bytes.length });
  await ctx.store.put(imageKey(projectId, name), bytes, type.mime);
  return { url: await signedImageUrl(ctx.signer, projectId, name) };
}

/** Marks the images behind these URLs (this project's own) as attached to a sent message: they are kept. */
export async function markImagesAttached(ctx: ServiceContext, projectId: string, urls: string[]): Promise<void> {
  const names = urls
    .map(parseImageUrl)
    .filter((ref): ref is ImageRef => ref !== null && ref.projectId === projectId.toLowerCase() && NAME.test(ref.name))
    .map((ref) => ref.name);
  await uploads.markUploadsAttached(ctx.sql, projectId, names);
}

/** Where an upload's bytes live (for the sweep that deletes unattached ones). */
export const uploadedImageKey = imageKey;

/** The bytes behind a signed image URL, or 404 for a bad, expired or foreign signature. */
export async function readSignedImage(
  ctx: ServiceContext & { signer: ImageSigner },
  projectId: string,
  name: string,
  exp: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): Promise<{ bytes: Uint8Array; mime: string }> {
  const expiresAt = Number(exp);
  if (!NAME.test(name) || !sig || !Number.isInteger(expiresAt) || expiresAt * 1000 < now) throw notFound("Image");
  if (!(await ctx.signer.verify(projectId, name, expiresAt, sig))) throw notFound("Image");
  const bytes = await ctx.store.get(imageKey(projectId, name));
  if (!bytes) throw notFound("Image");
  return { bytes, mime: MIME_BY_EXT.get(name.split(".").pop()!)! };
}

const URL_PATH = /^\/api\/upload\/image\/([0-9a-f-]{36})\/([^/?#]+)$/i;

export type ImageRef = { url: string; projectId: string; name: string; exp: string | undefined; sig: string | undefined };

/** The parts of an image URL this server signed, or null for anything else. Accepts absolute URLs too. */
export function parseImageUrl(url: string): ImageRef | null {
  let parsed: URL;
  try {
    parsed = new URL(url, "http://relative.invalid");
  } catch {
    return null;
  }
  const match = URL_PATH.exec(parsed.pathname);
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
 * Chat attachments for the model. The message keeps the signed URLs from `POST /api/upload/image`; the
 * model gets the bytes themselves (base64), so it can read them even when this server is not reachable
 * from the internet (a local model, a private deployment). Every URL must be an image uploaded to this
 * project and still valid: anything else is a 400 before anything is saved.
 */
export async function readAttachedImages(
  ctx: ServiceContext & { signer: ImageSigner },
  projectId: string,
  urls: string[],
): Promise<{ mime: string; base64: string }[]> {
  const images: { mime: string; base64: string }[] = [];
  for (const [i, url] of urls.entries()) {
    const ref = parseImageUrl(url);
    if (!ref || ref.projectId !== projectId.toLowerCase()) {
      throw badRequest(`attachments.${i}: not an image uploaded to this project (upload it with POST /api/upload/image first)`);
    }
    const image = await readSignedImage(ctx, projectId, ref.name, ref.exp, ref.sig).catch(() => {
      throw badRequest(`attachments.${i}: the image link has expired or is invalid; attach the image again`);
    });
    // Decoding is skipped for images already small enough (their PNG header says so).
    const small = downscaleForModel(image.bytes, image.mime);
    images.push({ mime: small.mime, base64: Buffer.from(small.bytes).toString("base64") });
  }
  return images;
}
