/**
 * A server deployment's build output, kept with it (issue 22): after the publish's `npm run build`, the files
 * of the output folder go into the deployment's `files` as `.built/<dir>/…`. No source path can look like
 * that (dot-paths never reach a deployment), so the two never mix. A wake or a rollback whose sandbox is gone
 * writes them back to `<dir>/…` after the source and starts the server without building again. Dependencies
 * are installed again: node_modules is not kept (large, and for a template's package.json the install is a
 * copy from the template cache).
 *
 * @example
 * keptBuildIn({ ".built/dist/index.html": entry }); // true
 * sandboxPathOf(".built/dist/index.html");          // "dist/index.html"
 */
import type { Manifest } from "../../db/versions";

const KEPT_PREFIX = ".built/";

/** The deployment's `files` key of a file of the build's output folder (`dir/path` in the sandbox). */
export const keptPathOf = (dir: string, path: string) => `${KEPT_PREFIX}${dir}/${path}`;

/** Where a deployment file goes in the server's sandbox: a kept build's file back in its output folder. */
export const sandboxPathOf = (key: string) => (key.startsWith(KEPT_PREFIX) ? key.slice(KEPT_PREFIX.length) : key);

export const isKept = (key: string) => key.startsWith(KEPT_PREFIX);

/** Whether the deployment carries its build: then no `npm run build` is needed to start it. */
export const keptBuildIn = (files: Manifest) => Object.keys(files).some(isKept);
