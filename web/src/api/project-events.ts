/**
 * The browser side of `GET /api/ws` (shared/src/events/project-events.ts): one WebSocket shared by every
 * screen that wants project events, authenticated with the ID token in the subprotocol list (a browser cannot
 * set headers on a WebSocket, and a token in the URL would be logged). It subscribes to the projects that
 * have listeners, reconnects with exponential back-off while anyone is listening, and closes when no one is.
 * When the server says `resync` (its event bus lost events), every cached query of the project is refetched.
 *
 * @example
 * const stop = projectEvents.subscribe(projectId, {
 *   onEvent: (event) => console.log(event.type, event.file.path),
 *   onLive: (live) => console.log(live ? "subscribed" : "socket down"),
 * });
 */
import { type DeploymentEvent, deploymentEventSchema, deploymentEventTypes } from "@shared/events/deployment-events";
import { type FileEvent, fileEventTypes } from "@shared/events/file-events";
import { type ClientSocketMessage, WS_PROTOCOL } from "@shared/events/project-events";
import { PROCESS_OUTPUT, PROCESS_STATUS, type ProcessEvent } from "@shared/events/process-events";
import type { QueryClient } from "@tanstack/react-query";
import { ACCESS_CHANGED, ACTIVITY_CHANGED, PRESENCE, type PresenceEvent, RUN_STARTED, type TeamEvent } from "@shared/events/team-events";
import { getAuthToken } from "./auth-token";
import { api } from "./endpoints";
import { queryClient } from "./query-client";
import { fileKeys, messageKeys, projectKeys, sandboxKeys } from "./query-keys";

export type ProjectEventListener = {
  onEvent: (event: FileEvent) => void;
  /** The project's problem list changed (`problems.changed`). */
  onProblemsChanged?: () => void;
  /** A named process's new output lines or status (the same socket carries them). */
  onProcessEvent?: (event: ProcessEvent) => void;
  /** True once the server confirmed the subscription (again after each reconnect), false when the socket drops. */
  onLive?: (live: boolean) => void;
  /** A publish's build log and status changes, on the same socket. */
  onDeployment?: (event: DeploymentEvent) => void;
  /** Who has the project open, a run someone started, a new activity line (shared/src/events/team-events.ts). */
  onTeamEvent?: (event: TeamEvent) => void;
};

type SocketLike = Pick<WebSocket, "send" | "close" | "readyState"> & {
  onopen: ((ev: Event) => unknown) | null;
  onmessage: ((ev: MessageEvent) => unknown) | null;
  onclose: ((ev: CloseEvent) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
};

export type ProjectEventsOptions = {
  url: () => string;
  getToken: () => Promise<string | null>;
  createSocket?: (url: string, protocols: string[]) => SocketLike;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  random?: () => number;
  /** The server may have missed some of the project's events (`resync`): what is shown of it must be fetched again. */
  onResync?: (projectId: string) => void;
};

export const RECONNECT_INITIAL_MS = 500;
export const RECONNECT_MAX_MS = 30_000;
/** How long an unused socket stays open, so a quick remount (or React's StrictMode) does not churn it. */
export const IDLE_CLOSE_MS = 3_000;
const OPEN = 1;

/** Back-off before reconnect attempt `attempt` (0-based): doubling up to 30 s, with half of it random. */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_INITIAL_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const FILE_EVENT_TYPES: ReadonlySet<string> = new Set(fileEventTypes);
const DEPLOYMENT_EVENT_TYPES: ReadonlySet<string> = new Set(deploymentEventTypes);

function isFileEvent(message: { type?: unknown; projectId?: unknown; file?: unknown }): message is FileEvent {
  return (
    typeof message.type === "string" &&
    FILE_EVENT_TYPES.has(message.type) &&
    typeof message.projectId === "string" &&
    typeof message.file === "object" &&
    message.file !== null
  );
}

const TEAM_EVENT_TYPES: ReadonlySet<string> = new Set([PRESENCE, RUN_STARTED, ACTIVITY_CHANGED, ACCESS_CHANGED]);

function isTeamEvent(message: { type?: unknown; projectId?: unknown }): message is TeamEvent {
  return TEAM_EVENT_TYPES.has(String(message.type)) && typeof message.projectId === "string";
}

function isProcessEvent(message: { type?: unknown; projectId?: unknown }): message is ProcessEvent {
  return (message.type === PROCESS_OUTPUT || message.type === PROCESS_STATUS) && typeof message.projectId === "string";
}

export function createProjectEventsClient(options: ProjectEventsOptions) {
  const createSocket = options.createSocket ?? ((url, protocols) => new WebSocket(url, protocols));
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const listeners = new Map<string, Set<ProjectEventListener>>();
  const live = new Set<string>();
  /** The last `presence` of each project, handed to a listener that joins later (the server sends it once per change). */
  const presence = new Map<string, PresenceEvent>();
  let socket: SocketLike | null = null;
  let connecting = false;
  let attempt = 0;
  let retryTimer: unknown = null;
  let idleTimer: unknown = null;

  const send = (message: ClientSocketMessage) => {
    if (socket?.readyState === OPEN) socket.send(JSON.stringify(message));
  };

  const setLive = (projectId: string, value: boolean) => {
    if (value === live.has(projectId)) return;
    if (value) live.add(projectId);
    else live.delete(projectId);
    for (const listener of listeners.get(projectId) ?? []) listener.onLive?.(value);
  };

  const scheduleReconnect = () => {
    if (retryTimer !== null || listeners.size === 0) return;
    retryTimer = setTimer(
      () => {
        retryTimer = null;
        void connect();
      },
      reconnectDelayMs(attempt++, options.random),
    );
  };

  async function connect(): Promise<void> {
    if (socket || connecting || listeners.size === 0) return;
    connecting = true;
    let token: string | null = null;
    try {
      token = await options.getToken();
    } catch {
      token = null;
    }
    connecting = false;
    if (listeners.size === 0 || socket) return;
    if (!token) return scheduleReconnect();

    let ws: SocketLike;
    try {
      ws = createSocket(options.url(), [WS_PROTOCOL, token]);
    } catch {
      return scheduleReconnect();
    }
    socket = ws;
    ws.onopen = () => {
      for (const projectId of listeners.keys()) send({ type: "subscribe", projectId });
    };
    ws.onmessage = (message) => {
      let data: { type?: unknown; projectId?: unknown; file?: unknown };
      try {
        data = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (data.type === "subscribed" && typeof data.projectId === "string") {
        attempt = 0;
        setLive(data.projectId, true);
      } else if (data.type === "resync" && typeof data.projectId === "string") {
        if (listeners.has(data.projectId)) options.onResync?.(data.projectId);
      } else if (isFileEvent(data)) {
        for (const listener of listeners.get(data.projectId) ?? []) listener.onEvent(data);
      } else if (DEPLOYMENT_EVENT_TYPES.has(String(data.type))) {
        // Parsed, not trusted: a malformed build event is dropped rather than reaching the Publish dialog.
        const event = deploymentEventSchema.safeParse(data);
        if (event.success) for (const listener of listeners.get(event.data.projectId) ?? []) listener.onDeployment?.(event.data);
      } else if (data.type === "problems.changed" && typeof data.projectId === "string") {
        for (const listener of listeners.get(data.projectId) ?? []) listener.onProblemsChanged?.();
      } else if (isProcessEvent(data)) {
        for (const listener of listeners.get(data.projectId) ?? []) listener.onProcessEvent?.(data);
      } else if (isTeamEvent(data)) {
        if (data.type === PRESENCE) presence.set(data.projectId, data);
        for (const listener of listeners.get(data.projectId) ?? []) listener.onTeamEvent?.(data);
      }
    };
    ws.onerror = () => {
      // A close event always follows; reconnecting is decided there.
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      presence.clear();
      for (const projectId of [...live]) setLive(projectId, false);
      scheduleReconnect();
    };
  }

  const closeSocket = () => {
    if (retryTimer !== null) clearTimer(retryTimer);
    retryTimer = null;
    attempt = 0;
    const ws = socket;
    socket = null;
    live.clear();
    ws?.close(1000, "no listeners");
  };

  return {
    subscribe(projectId: string, listener: ProjectEventListener): () => void {
      if (idleTimer !== null) clearTimer(idleTimer);
      idleTimer = null;
      let set = listeners.get(projectId);
      if (!set) {
        set = new Set();
        listeners.set(projectId, set);
        send({ type: "subscribe", projectId });
      }
      set.add(listener);
      if (live.has(projectId)) listener.onLive?.(true);
      const present = presence.get(projectId);
      if (present) listener.onTeamEvent?.(present);
      void connect();

      return () => {
        const current = listeners.get(projectId);
        if (!current?.delete(listener) || current.size > 0) return;
        listeners.delete(projectId);
        live.delete(projectId);
        presence.delete(projectId);
        send({ type: "unsubscribe", projectId });
        if (listeners.size === 0) {
          idleTimer = setTimer(() => {
            idleTimer = null;
            if (listeners.size === 0) closeSocket();
          }, IDLE_CLOSE_MS);
        }
      };
    },
    /** Whether events for the project are flowing right now. */
    isLive: (projectId: string) => live.has(projectId),
  };
}

export type ProjectEventsClient = ReturnType<typeof createProjectEventsClient>;

/**
 * Refetches everything cached of the project (its detail, files, chat, sandbox, processes, problems, versions,
 * publish state, database) and its card in the project list: whatever changed while events were lost.
 */
export function invalidateProjectQueries(client: QueryClient, projectId: string): Promise<unknown> {
  return Promise.all(
    [projectKeys.detail(projectId), fileKeys.list(projectId), messageKeys.list(projectId), sandboxKeys.project(projectId)]
      .map((queryKey) => client.invalidateQueries({ queryKey }))
      .concat(client.invalidateQueries({ queryKey: projectKeys.all, exact: true })),
  ).catch(() => {});
}

/** The app's one client, on the same origin as the page (Vite's dev proxy carries the upgrade to the API). */
export const projectEvents: ProjectEventsClient = createProjectEventsClient({
  url: () => api.files.eventsSocketUrl(),
  getToken: getAuthToken,
  onResync: (projectId) => void invalidateProjectQueries(queryClient, projectId),
});
