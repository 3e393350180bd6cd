/**
 * /api/files: the file list, contents, save, rename, delete, download map, and create-by-path.
 * Reads and creates are addressed by project (`/:projectId…`), changes to one file by its id (`/:fileId…`),
 * the paths the web client calls. `/:projectId/download` is declared before `/:projectId/:fileId` so it wins.
 */
import { createFileSchema, renameFileSchema, saveFileContentSchema } from "@shared/schemas/file";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { fileAccess, projectAccess } from "../services/access";
import { streamDownloadMap } from "../services/download-map";
import * as edits from "../services/file-edits";
import * as files from "../services/files";

export const fileRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:projectId", async (c) => c.json(await files.listProjectFiles(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view"))))
    .post("/:projectId", validate("json", createFileSchema), async (c) => {
      const { path, content } = c.req.valid("json");
      const { file, created } = await edits.writeFileAsUser(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"), path, content);
      return c.json(file, created ? 201 : 200);
    })
    // Streamed: the server holds one file at a time however large the project (the map's shape: download-map.ts).
    .get("/:projectId/download", async (c) => {
      const stream = await streamDownloadMap(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view"));
      return new Response(stream, { headers: { "content-type": "application/json", "cache-control": "no-store" } });
    })
    .get("/:projectId/:fileId", async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view");
      return c.json(await files.readFileContent(deps, access, c.req.param("fileId")));
    })
    .patch("/:fileId/content", validate("json", saveFileContentSchema), async (c) =>
      c.json(
        await edits.saveFileAsUser(
          deps,
          await fileAccess(deps, c.var.caller.uid, c.req.param("fileId"), "edit"),
          c.req.param("fileId"),
          c.req.valid("json").content,
        ),
      ),
    )
    .patch("/:fileId/rename", validate("json", renameFileSchema), async (c) =>
      c.json(
        await edits.renameFileAsUser(
          deps,
          await fileAccess(deps, c.var.caller.uid, c.req.param("fileId"), "edit"),
          c.req.param("fileId"),
          c.req.valid("json").newPath,
        ),
      ),
    )
    .delete("/:fileId", async (c) => {
      await edits.deleteFileAsUser(deps, await fileAccess(deps, c.var.caller.uid, c.req.param("fileId"), "edit"), c.req.param("fileId"));
      return c.json({ ok: true });
    });
