/**
 * What a `TandemServer` is made with: its options, and the hooks that decide who may connect
 * (`Authorize`, `AuthorizeToken`, with the `AuthRefusal` they throw) and where it logs.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http'
import type { UndoHistoryLimits } from '@tandem/protocol'
import type { VersionOptions } from './history/room-versions.js'
import type { ServerProgramsOptions } from './programs/server-programs.js'
import type { RateLimits } from './rate-limit.js'
import type { Role } from './room.js'
import type { AwarenessStateLimits } from './room-awareness.js'
import type { Relay } from './scale/relay.js'
import type { SendBounds } from './socket-peer.js'
import type { StaticSite } from './static-site.js'
import type { DocumentStore } from './storage/document-store.js'

/** What a connection may do, who it is, and until when. */
export interface Authorization {
  /** `write` may change the document, `read` only follows it. */
  readonly role: Role
  /** The user's id, for sessions and logs. */
  readonly user?: string
  /**
   * When the access ends, in milliseconds since the epoch (a token's `exp` times 1000): the
   * server then closes the connection with 4401 `token expired`, unless its client handed over
   * a fresh token first (see `authorizeToken`). Without it, access lasts as long as the
   * connection.
   */
  readonly expiresAt?: number
}

/** Thrown by an `authorize` hook to refuse a connection with an HTTP status and a reason. */
export class AuthRefusal extends Error {
  /** Always `'AuthRefusal'`. */
  override readonly name = 'AuthRefusal'

  constructor(
    /** 401 when the client should log in, 403 when it may not enter. */
    readonly status: 401 | 403,
    /** Sent to the client with the status. */
    readonly reason: string,
  ) {
    super(reason)
  }
}

/**
 * Decides whether `request` may open `room`: returns its authorization, or throws an
 * `AuthRefusal`. Without a hook every connection may write.
 */
export type Authorize = (
  request: IncomingMessage,
  room: string,
) => Authorization | Promise<Authorization>

/**
 * Decides what a token handed over on an open connection of `room` allows (a message of type
 * `MessageType.token`): returns its authorization, or throws an `AuthRefusal` (the connection
 * is then closed with 4000 plus its status, 4401 or 4403, and its reason).
 */
export type AuthorizeToken = (token: string, room: string) => Authorization | Promise<Authorization>

/** Something that logs, as pino does. */
export interface Logger {
  /** Logs something worth knowing in normal operation. */
  info(fields: object, message?: string): void
  /** Logs a problem the server survived, such as a client refused or closed. */
  warn(fields: object, message?: string): void
  /** Logs a failure, such as storage that could not be written. */
  error(fields: object, message?: string): void
  /** Logs detail for debugging. */
  debug(fields: object, message?: string): void
}

/** Options of `TandemServer`. */
export interface TandemServerOptions {
  /** Where the rooms' documents and sessions are kept. */
  readonly store: DocumentStore
  /** Decides who may connect and with which role; without it everyone may write. */
  readonly authorize?: Authorize
  /**
   * Checks a fresh token a client hands over on its open connection (see `tokenAuth`, which
   * gives this hook and `authorize` together). The fresh token must be for the connection's
   * user; its role and expiry replace the connection's. Without this hook such messages are
   * ignored, and a connection keeps the access it opened with.
   */
  readonly authorizeToken?: AuthorizeToken
  /** Largest message accepted, in bytes (default 32 MiB); a larger one closes its connection. */
  readonly maxMessageBytes?: number
  /** How long an empty room stays in memory (default 30 s). */
  readonly idleUnloadMs?: number
  /** How often connections are pinged; one that missed the last pong is dropped (default 30 s). */
  readonly pingIntervalMs?: number
  /** Compact a room's log once it holds this many updates (default 500). */
  readonly compactAfterUpdates?: number
  /**
   * Shares rooms with other instances (see `RedisRelay`); they must use the same store.
   * The server does not close it: whoever made it does, after `close()`.
   */
  readonly relay?: Relay
  /** Connections open at once on one room (default 1000); more are refused with 503. */
  readonly maxConnectionsPerRoom?: number
  /** Connections open at once from one client address (default 100); more are refused with 429. */
  readonly maxConnectionsPerIp?: number
  /**
   * Take the client address from the last `X-Forwarded-For` entry, for a server behind one
   * reverse proxy (default false: the socket's peer address).
   */
  readonly trustProxy?: boolean
  /**
   * How long a request's headers may take to arrive, from the moment its socket connects, in
   * milliseconds (default 10 s; `Infinity` for no bound). A slower socket is answered 408 and
   * closed, within a second of the bound.
   */
  readonly headersTimeoutMs?: number
  /**
   * Sockets one client address may hold open before they become WebSocket connections (their
   * upgrade request not arrived yet, or plain HTTP connections kept alive); default 50. One
   * more is destroyed at once. Not applied with `trustProxy`, where every socket comes from
   * the proxy.
   */
  readonly maxPendingSocketsPerIp?: number
  /** Per-connection rate limits (see `RateLimits` for the defaults); over one closes with 1008. */
  readonly rateLimits?: RateLimits
  /**
   * How many bytes sent to a connection may wait unread (see `SendBounds`): past `pauseAt`
   * (default 1 MiB) it is not read and replies wait, past `closeAt` (default 16 MiB) it is
   * closed with 1008.
   */
  readonly sendBuffer?: SendBounds
  /** Bounds on awareness states (see `DEFAULT_AWARENESS_LIMITS`); a state over one closes its sender. */
  readonly awarenessLimits?: Partial<AwarenessStateLimits>
  /** Read-only connections' awareness (carets, names) is neither applied nor shown (default false). */
  readonly hideReadOnlyPresence?: boolean
  /**
   * Bytes of a room's updates that may wait for the store (default 64 MiB): past it, the
   * store counts as failed for that room (its connections are closed with 1011).
   */
  readonly maxUnstoredBytes?: number
  /**
   * When rooms make versions by themselves (after a pause, at an interval) and how long the
   * automatic ones are kept; see docs/history.md. Named versions are always kept.
   */
  readonly versions?: VersionOptions
  /** The name of each room's Y.Text, for attribution and versions (default `"text"`). */
  readonly textName?: string
  /**
   * Caps on each user's undo history per room (default `DEFAULT_UNDO_HISTORY_LIMITS` of
   * `@tandem/protocol`: 500 steps, 512 KiB): a history over them loses its oldest steps.
   */
  readonly undoHistoryLimits?: Partial<UndoHistoryLimits>
  /** The program change log's bounds and HTTP programs' presence (see `ServerProgramsOptions`). */
  readonly programs?: ServerProgramsOptions
  /**
   * A web app to serve over plain HTTP (see `StaticSite`). With it, rooms move under
   * `ROOM_PATH` (`ws://host/ws/<room>`), every other path is the app's, and `GET /ws/` lists
   * the stored rooms as JSON (`{"rooms": [...]}`) unless an `authorize` hook is set.
   */
  readonly site?: StaticSite
  /** Where the server logs (nowhere unless given). */
  readonly logger?: Logger
}
