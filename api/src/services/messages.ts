/** Chat history reads. (Writing messages belongs to the agent run.) */
import type { Message } from "@shared/schemas/message";
import * as messages from "../db/messages";
import type { ServiceContext } from "./context";
import { getOwnedProject } from "./projects";

export async function listMessages(ctx: ServiceContext, ownerId: string, projectId: string): Promise<Message[]> {
  await getOwnedProject(ctx, ownerId, projectId);
  return messages.listMessages(ctx.sql, projectId);
}
