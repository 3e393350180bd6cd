/**
 * A file-event WebSocket subscribed to one project, as the web app's is: resolves once the server says
 * `subscribed`; every later message goes to `onMessage` with the time (performance.now()) it arrived.
 *
 * @example
 * const ws = await subscribeToProject(`ws://127.0.0.1:${port}/api/ws`, token, projectId, (m, at) => {
 *   if (m.type === "file.created") arrived.get(m.file.path)?.(at);
 * });
 */
import { WS_PROTOCOL, type ServerSocketMessage } from "../../shared/src/events/project-events";

export function subscribeToProject(
  url: string,
  token: string,
  projectId: string,
  onMessage: (message: ServerSocketMessage, at: number) => void,
): Promise<WebSocket> {
  const ws = new WebSocket(url, [WS_PROTOCOL, token]);
  return new Promise((resolve, reject) => {
    ws.onerror = () => reject(new Error("WebSocket error"));
    ws.onopen = () => ws.send(JSON.stringify({ type: "subscribe", projectId }));
    ws.onmessage = (e) => {
      const at = performance.now();
      const message = JSON.parse(String(e.data)) as ServerSocketMessage;
      if (message.type === "subscribed") resolve(ws);
      else if (message.type === "error") reject(new Error(message.message));
      else onMessage(message, at);
    };
  });
}
