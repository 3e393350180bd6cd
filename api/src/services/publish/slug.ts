/**
 * Site names: checked by `slugProblem` (shared, so the dialog says the same), made from a project's name
 * when the user gives none, and kept unique by the `sites.slug` index.
 *
 * @example
 * slugFromName("My Todo App!") // "my-todo-app"
 */
import { RESERVED_SLUGS, SLUG_MAX_LENGTH, slugProblem } from "@shared/schemas/publish";

export { slugProblem };

export function slugFromName(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX_LENGTH - 5)
    .replace(/-+$/g, "");
  if (!base || RESERVED_SLUGS.has(base)) return base ? `${base}-site` : "site";
  return base;
}

/** The name with a short random suffix, for when the plain one is taken. */
export function withSuffix(slug: string): string {
  const suffix = crypto.randomUUID().replace(/-/g, "").slice(0, 4);
  return `${slug.slice(0, SLUG_MAX_LENGTH - 5).replace(/-+$/g, "")}-${suffix}`;
}
