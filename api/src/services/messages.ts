/** Chat history reads. (Writing messages belongs to the agent run.) */
import type { Message } from "@shared/schemas/message";
import * as messages from "../db/messages";
import type { ServiceContext } from "./context";
import { parseImageUrl, signedImageUrl, type ImageSigner } from "./images";
import type { ProjectAccess } from "./access";

/**
 * The project's messages, oldest first. Attached image URLs expire, so each of this project's images is
 * signed afresh: history from last month still shows its pictures.
 */
export async function listMessages(ctx: ServiceContext & { signer: ImageSigner }, access: ProjectAccess): Promise<Message[]> {
  const { projectId } = access;
  const list = await messages.listMessages(ctx.sql, projectId);
  const now = Date.now();
  return Promise.all(
    list.map(async (m) => ({
      ...m,
      attachments: await Promise.all(
        m.attachments.map(async (url) => {
          const ref = parseImageUrl(url);
          return ref && ref.projectId === projectId.toLowerCase() ? signedImageUrl(ctx.signer, projectId, ref.name, now) : url;
        }),
      ),
    })),
  );
}
