/**
 * /api/projects/{id}/versions…: the project's history (list, manifest, a file at a version, diff), "Save
 * version", restore, and the version from before a chat message (for "Restore to before this message" and
 * "Undo this run"); and POST /api/projects/import, a new project from a .zip (or, as JSON, from a git
 * repository's URL, connected to it). Mounted under /projects; the
 * import sub-app goes before the JSON body limit, as it takes a large multipart body.
 */
import { importGitSchema } from "@shared/schemas/git";
import { createVersionSchema, listVersionsQuerySchema } from "@shared/schemas/versions";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppDeps, AppEnv } from "../app-env";
import type { requireAuth } from "../auth/middleware";
import type { RateLimits } from "../middleware/rate-limit";
import { badRequest, tooLarge } from "../lib/errors";
import { formFields, validate } from "../lib/validate";
import { projectAccess } from "../services/access";
import { recordActivity } from "../services/activity";
import { asText } from "../services/file-content";
import * as versions from "../services/versions/index";
import { importLimitsFrom } from "../services/versions/import-zip";

export const versionRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:id/versions", validate("query", listVersionsQuerySchema), async (c) => {
      const page = await versions.listProjectVersions(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"), c.req.valid("query"));
      if (page.nextBefore) c.header("x-next-before", page.nextBefore);
      return c.json(page.versions);
    })
    .post("/:id/versions", validate("json", createVersionSchema), async (c) =>
      c.json(await versions.createManualVersion(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"), c.req.valid("json").label), 201),
    )
    .get("/:id/versions/before-message/:messageId", async (c) =>
      c.json(await versions.versionBeforeMessage(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"), c.req.param("messageId"))),
    )
    .get("/:id/versions/:versionId", async (c) =>
      c.json(await versions.getVersion(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"), c.req.param("versionId"))),
    )
    .get("/:id/versions/:versionId/files/:path{.+}", async (c) => {
      const bytes = await versions.readVersionFile(
        deps,
        await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"),
        c.req.param("versionId"),
        c.req.param("path"),
      );
      const type = asText(bytes) === null ? "application/octet-stream" : "text/plain; charset=utf-8";
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        "content-type": type,
        "x-content-type-options": "nosniff",
        "cache-control": "private, max-age=31536000, immutable",
      });
    })
    .get("/:id/versions/:from/diff/:to", async (c) => {
      const patch = ["1", "true"].includes(c.req.query("patch") ?? "");
      return c.json(
        await versions.diffVersions(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"), c.req.param("from"), c.req.param("to"), {
          patch,
        }),
      );
    })
    .post("/:id/versions/:versionId/restore", async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit");
      const restored = await versions.restoreVersion(deps, access, c.req.param("versionId"));
      await recordActivity(deps, access, "version.restored", { versionId: c.req.param("versionId") });
      return c.json(restored);
    });

/** POST /import, with its own sign-in check and a body limit sized for a whole project. */
export const projectImportRoutes = (deps: AppDeps, auth: ReturnType<typeof requireAuth>, rateLimit: RateLimits["projects"]) => {
  const limits = importLimitsFrom(deps.config.limits);
  return new Hono<AppEnv>().post(
    "/import",
    auth,
    rateLimit,
    // JSON `{gitUrl, branch?, username?, token?, name?}`: a project from a git repository, connected to it.
    async (c, next) => {
      if (!c.req.header("content-type")?.includes("application/json")) return next();
      const body = importGitSchema.safeParse(await c.req.json().catch(() => null));
      if (!body.success)
        throw badRequest(`Send {"gitUrl": "https://…"} (with branch, username, token or name if needed): ${body.error.issues[0]?.message ?? ""}`);
      return c.json(await deps.git.importRepository(c.var.caller.uid, body.data), 201);
    },
    bodyLimit({
      maxSize: limits.maxTotalBytes + 1024 * 1024,
      onError: () => {
        throw tooLarge(`The zip is larger than the ${Math.round(limits.maxTotalBytes / 1048576)} MB a project may hold.`);
      },
    }),
    formFields<{ file: File; name?: string }>(),
    async (c) => {
      const form = await c.req.parseBody().catch(() => {
        throw badRequest("Send the zip as multipart/form-data in field file (and optionally a name).");
      });
      const file = form.file;
      if (!(file instanceof File)) throw badRequest("file: a .zip file is required");
      const name = typeof form.name === "string" ? form.name : undefined;
      const zip = new Uint8Array(await file.arrayBuffer());
      return c.json(await versions.importProjectZip(deps, c.var.caller.uid, { zip, fileName: file.name || undefined, name }, limits), 201);
    },
  );
};
