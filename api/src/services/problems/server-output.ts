/** The dev server's (`app` process's) output: its error lines become `server` and `build` problems. */
import * as rows from "../../db/problems";
import type { ServiceContext } from "../context";
import { classifyOutput } from "./classify-output";
import { recordProblems } from "./store";
import type { OutputLine } from "./types";

/** At most this many problems are taken from one batch of output lines (a crash loop prints the same ones). */
const MAX_PER_OUTPUT_BATCH = 20;

export async function ingestServerOutput(ctx: ServiceContext, projectId: string, lines: OutputLine[]): Promise<void> {
  const problems = classifyOutput(lines).slice(0, MAX_PER_OUTPUT_BATCH);
  if (problems.length === 0) return;
  const ownerId = await rows.findProjectOwner(ctx.sql, projectId);
  if (ownerId) await recordProblems(ctx, projectId, ownerId, problems);
}
