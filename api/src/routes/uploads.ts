/**
 * /api/upload/image: chat image upload (bearer) and the signed, expiring URL that serves it back to an
 * `<img>` (no bearer possible there, so the signature is the credential).
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppDeps, AppEnv } from "../app-env";
import type { requireAuth } from "../auth/middleware";
import type { RateLimits } from "../middleware/rate-limit";
import { badRequest, tooLarge } from "../lib/errors";
import { formFields } from "../lib/validate";
import { projectAccess } from "../services/access";
import { readSignedImage, uploadImage } from "../services/images";

export const uploadRoutes = (deps: AppDeps, auth: ReturnType<typeof requireAuth>, rateLimit: RateLimits["uploads"]) => {
  const ctx = { ...deps, maxBytes: deps.config.limits.maxUploadBytes };
  return new Hono<AppEnv>()
    .post(
      "/image",
      auth,
      rateLimit,
      // Multipart framing adds a little to the file itself.
      bodyLimit({
        maxSize: deps.config.limits.maxUploadBytes + 64 * 1024,
        onError: () => {
          throw tooLarge(`The image is larger than the ${(deps.config.limits.maxUploadBytes / 1048576).toFixed(1)} MB limit.`);
        },
      }),
      formFields<{ file: File; projectId: string }>(),
      async (c) => {
        const form = await c.req.parseBody().catch(() => {
          throw badRequest("Send the image as multipart/form-data with fields file and projectId.");
        });
        const file = form.file;
        const projectId = form.projectId;
        if (!(file instanceof File)) throw badRequest("file: an image file is required");
        if (typeof projectId !== "string" || !projectId) throw badRequest("projectId: required");
        return c.json(await uploadImage(ctx, await projectAccess(deps, c.var.caller.uid, projectId, "edit"), file), 201);
      },
    )
    .get("/image/:projectId/:name", async (c) => {
      const { bytes, mime } = await readSignedImage(deps, c.req.param("projectId"), c.req.param("name"), c.req.query("exp"), c.req.query("sig"));
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        "content-type": mime,
        "cache-control": "private, max-age=3600",
        "x-content-type-options": "nosniff",
        "content-disposition": "inline",
      });
    });
};
