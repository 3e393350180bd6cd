/**
 * What the site server (api/src/sites/) reads: a slug's live deployment (its files) and a blob's bytes.
 * Published sites are public by design, so there is no owner check here: a slug is its own key.
 */
import { blobKey } from "../../db/blobs";
import { findLiveSite, type LiveSiteRow } from "../../db/deployments";
import type { ServiceContext } from "../context";

export type LiveSite = LiveSiteRow;

export const loadLiveSite = (ctx: Pick<ServiceContext, "sql">, slug: string): Promise<LiveSite | null> => findLiveSite(ctx.sql, slug);

export const readSiteBlob = (ctx: Pick<ServiceContext, "store">, sha256: string): Promise<Uint8Array | null> => ctx.store.get(blobKey(sha256));
