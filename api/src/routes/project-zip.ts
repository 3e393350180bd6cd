/**
 * GET /api/files/{projectId}/download.zip: the project as a ZIP streamed from the server (for projects too
 * large for the browser to zip from the download map). Mounted before the file routes, whose
 * `/:projectId/:fileId` would otherwise take "download.zip" for a file id.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { projectAccess } from "../services/access";
import { streamProjectZip } from "../services/project-zip";

/** A name safe in a Content-Disposition header, with the full name in its RFC 5987 form beside it. */
const disposition = (name: string) => {
  const plain = name.replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "") || "project";
  return `attachment; filename="${plain}.zip"; filename*=UTF-8''${encodeURIComponent(`${name}.zip`)}`;
};

export const projectZipRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().get("/:projectId/download.zip", async (c) => {
    const { name, stream } = await streamProjectZip(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view"));
    return new Response(stream, {
      headers: { "content-type": "application/zip", "content-disposition": disposition(name), "cache-control": "no-store" },
    });
  });
