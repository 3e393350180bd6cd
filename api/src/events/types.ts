/**
 * EventBus: how a file change made through one API instance reaches browsers connected to any instance,
 * and how one instance tells the others to stop a sandbox.
 * In-process (embedded mode, one instance) or PostgreSQL LISTEN/NOTIFY (shared database).
 * `origin` tells subscribers who made the change, so the sandbox sync does not echo its own writes.
 */
import type { DeploymentEvent } from "@shared/events/deployment-events";
import type { FileEvent } from "@shared/events/file-events";
import type { ProblemsChangedEvent } from "@shared/schemas/problems";
import type { ProcessEvent } from "@shared/events/process-events";
import type { ActivityChangedEvent, PresentPerson, RunStartedEvent } from "@shared/events/team-events";

export type FileBusEvent = FileEvent & {
  ownerId: string;
  origin: "api" | "sandbox";
  /**
   * The sandbox sync (`SandboxSync.id`) that already pushed this change, with the bytes in hand, into the
   * sandbox its instance has attached: that instance skips the event; every other one reads the change from
   * storage.
   */
  pushedBy?: string;
};

/**
 * A project's sandbox must stop wherever it runs: its project was deleted, or a recreate replaced it. The
 * instance holding it (local sandboxes live in one process) kills it; the others have nothing to do.
 */
export type SandboxStopEvent = { type: "sandbox.stop"; projectId: string; sandboxId: string; ownerId: string; origin: "api"; pushedBy?: undefined };

/** The project's problem list changed (services/problems); forwarded to the owner's sockets as it is. */
export type ProblemsBusEvent = ProblemsChangedEvent & { ownerId: string; origin?: undefined; pushedBy?: undefined };

/** A named process's output or status (not a file change: the sandbox sync ignores these). */
export type ProcessBusEvent = ProcessEvent & { ownerId: string; origin: "api" | "sandbox"; pushedBy?: undefined };

/**
 * A project's environment changed (services/sandboxes/project-env.ts): a secret was set or removed, or another
 * part's variables changed. The instance running its `app` restarts it; a run waiting for a secret hears of it.
 */
export type ProjectEnvChangedEvent = { type: "project.env.changed"; projectId: string; ownerId: string; names: string[]; origin: "api"; pushedBy?: undefined };

/** The owner declined a secret an agent run asked for (request_secret): the run waiting for it, on any instance, goes on without. */
export type SecretDeclinedEvent = { type: "secret.declined"; projectId: string; ownerId: string; name: string; origin: "api"; pushedBy?: undefined };

/**
 * A person's place in a project changed (removed, made a viewer, the project handed over): every instance checks
 * that person's open sockets again (services/access.ts), so a removed member hears nothing more and a viewer's
 * terminal closes.
 */
export type AccessChangedEvent = { type: "project.access.changed"; projectId: string; userId: string; ownerId: string; origin: "api"; pushedBy?: undefined };

/**
 * A share link was revoked (services/share-links.ts): every instance closes the preview sockets and open pages
 * that entered through it (realtime/preview-proxy.ts), as the per-request check only stops new requests.
 */
export type ShareLinkRevokedEvent = { type: "share_link.revoked"; projectId: string; linkId: string; ownerId: string; origin: "api"; pushedBy?: undefined };

/**
 * Who has a project open through one hub (realtime/presence-relay.ts): each hub tells the others whenever its
 * people there change, so presence is the same on every instance; `ask` asks the others to say theirs.
 */
export type PresenceRelayEvent = {
  type: "presence.relay";
  projectId: string;
  hub: string;
  people: PresentPerson[];
  ask: boolean;
  origin: "api";
  ownerId?: undefined;
  pushedBy?: undefined;
};

/**
 * An administrator disabled or re-enabled a user (services/admin): every instance reads that user's flag again
 * on their next request, and on `user.disabled` closes their open sockets and terminals.
 */
export type UserStatusEvent =
  | { type: "user.disabled"; userId: string; origin: "api"; projectId?: undefined; pushedBy?: undefined }
  | { type: "user.enabled"; userId: string; origin: "api"; projectId?: undefined; pushedBy?: undefined };

/** An administrator stopped a project's running answer: the instance running it stops it (the others have none). */
export type RunStopEvent = { type: "run.stop"; projectId: string; ownerId: string; note: string; origin: "api"; pushedBy?: undefined };
/** Someone started a run, or the activity got a line: forwarded to the project's sockets so the others follow. */
export type TeamBusEvent = (RunStartedEvent | ActivityChangedEvent) & { ownerId: string; origin: "api"; pushedBy?: undefined };

export type BusEvent =
  | FileBusEvent
  | SandboxStopEvent
  | ProblemsBusEvent
  | ProcessBusEvent
  | ProjectEnvChangedEvent
  | SecretDeclinedEvent
  | AccessChangedEvent
  | ShareLinkRevokedEvent
  | PresenceRelayEvent
  | UserStatusEvent
  | RunStopEvent
  | TeamBusEvent;

/** Subscribers that act on file changes skip every other kind of event with this. */
export const isFileEvent = (event: BusEvent): event is FileBusEvent => event.type.startsWith("file.");

/**
 * Published sites: build progress for the owner's browsers, and `site.changed` (a slug's live deployment
 * changed or went) so every instance drops what it cached for that host at once.
 */
export type SiteBusEvent = (DeploymentEvent & { ownerId: string }) | { type: "site.changed"; slug: string };

/**
 * A chat run reached through another instance (services/chat-runs/run-relay.ts): an instance without the run
 * asks (`run.attach`, `run.stop`), the instance running it answers. A run's stream events travel as `run.event`
 * pieces of their JSON (`part` of `parts`), numbered in order (`seq`), since one can exceed NOTIFY's 8000 bytes.
 */
export type RunBusEvent =
  | { type: "run.attach"; projectId: string; requestId: string }
  | { type: "run.detach"; projectId: string; requestId: string }
  | { type: "run.event"; projectId: string; requestId: string; instance: string; messageId: string; seq: number; part: number; parts: number; text: string }
  | { type: "run.stop"; projectId: string; requestId: string }
  | { type: "run.stopping"; projectId: string; requestId: string }
  | { type: "run.stopped"; projectId: string; requestId: string; instance: string; stopped: boolean; messageId: string | null };

export interface EventBus {
  readonly kind: "memory" | "postgres";
  publish(event: BusEvent): Promise<void>;
  subscribe(handler: (event: BusEvent) => void): () => void;
  /** A second channel, so file-event subscribers never see site events and the reverse. */
  publishSite(event: SiteBusEvent): Promise<void>;
  subscribeSite(handler: (event: SiteBusEvent) => void): () => void;
  /** A third channel for chat runs relayed between instances; publish resolves once the event is sent, in order. */
  publishRun(event: RunBusEvent): Promise<void>;
  subscribeRun(handler: (event: RunBusEvent) => void): () => void;
  /**
   * Called after the bus lost its connection and got it back: NOTIFY is not queued for a listener that is
   * gone, so whatever was published meanwhile is lost, and each subscriber must fetch the state afresh
   * (browsers refetch, attached sandboxes sync from storage again). Never called on the memory bus.
   */
  onResync(handler: () => void): () => void;
  close(): Promise<void>;
}
