/**
 * The Publish dialog's site name field: it starts from the site's name (or the suggested one) and, once the
 * user has typed, shows only what they typed, so a cleared field stays empty and asks for a name instead of
 * refilling itself.
 */
import { slugProblem } from "@shared/schemas/publish";

type SiteNames = { slug: string | null; suggestedSlug: string } | undefined;

/** `typed`: the field's text once the user changed it, null before. */
export function siteNameShown(typed: string | null, site: SiteNames): string {
  return typed ?? site?.slug ?? site?.suggestedSlug ?? "";
}

/** What is wrong with the name shown: nothing while it is still loading; an empty field the user cleared asks for one. */
export function siteNameProblem(typed: string | null, shown: string): string | null {
  if (typed === null && !shown) return null;
  return slugProblem(shown);
}
