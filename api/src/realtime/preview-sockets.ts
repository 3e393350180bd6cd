/**
 * The preview sockets open on this instance (an app's own WebSockets such as Vite's HMR, and each open page's
 * watch socket), each with the grant it was admitted on. The proxy checks access on every request, but a socket
 * already upgraded makes no more requests: so when a member is removed or made to lose the project
 * (`project.access.changed`), a share link is revoked (`share_link.revoked`) or an account is disabled
 * (`user.disabled`), from any instance, the sockets that grant opened close at once with
 * PREVIEW_ACCESS_ENDED_CLOSE. A page's watch socket closing so makes the page reload (report.js), and the
 * reload is the proxy's 404 page.
 *
 * @example
 * const open = createPreviewSockets({ events, allowed, logger });
 * open.add(ws); // in the socket's open handler; open.remove(ws) in its close handler
 */
import type { ServerWebSocket } from "bun";
import type { EventBus } from "../events/types";
import type { Logger } from "../lib/logger";
import type { PreviewGrant } from "../lib/preview-grant";

/** Close code of a preview socket whose grant no longer opens the preview (4000 + HTTP's 404). */
export const PREVIEW_ACCESS_ENDED_CLOSE = 4404;

type GrantedSocket = ServerWebSocket<{ grant: PreviewGrant; sandboxId: string }>;

export type PreviewSockets = {
  add(ws: GrantedSocket): void;
  remove(ws: GrantedSocket): void;
  count(): number;
  close(): void;
};

export function createPreviewSockets(deps: {
  events?: EventBus;
  allowed: (grant: PreviewGrant, sandboxId: string) => Promise<boolean>;
  logger: Logger;
}): PreviewSockets {
  const open = new Set<GrantedSocket>();
  const end = (ws: GrantedSocket) => {
    open.delete(ws);
    ws.close(PREVIEW_ACCESS_ENDED_CLOSE, "preview access ended");
  };

  /** The person's sockets on the project, checked again (a role change that keeps any role keeps them). */
  async function recheck(projectId: string, userId: string): Promise<void> {
    const theirs = [...open].filter((ws) => ws.data.grant.userId === userId && ws.data.grant.projectId === projectId);
    for (const ws of theirs) {
      const still = await deps.allowed(ws.data.grant, ws.data.sandboxId).catch((error) => {
        // Closed rather than trusted: the page reloads and is checked on that request.
        deps.logger.warn("preview socket access not checked", { projectId, error: String(error) });
        return false;
      });
      if (!still) end(ws);
    }
  }

  const unsubscribe = deps.events?.subscribe((event) => {
    if (event.type === "project.access.changed") return void recheck(event.projectId, event.userId);
    if (event.type === "share_link.revoked") {
      for (const ws of [...open]) if (ws.data.grant.linkId === event.linkId) end(ws);
    }
    if (event.type === "user.disabled") {
      for (const ws of [...open]) if (ws.data.grant.userId === event.userId) end(ws);
    }
  });

  return {
    add: (ws) => void open.add(ws),
    remove: (ws) => void open.delete(ws),
    count: () => open.size,
    close() {
      unsubscribe?.();
      open.clear();
    },
  };
}
