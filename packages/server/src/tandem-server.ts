/**
 * `TandemServer`: an HTTP server whose WebSocket upgrades speak the y-websocket protocol, one
 * room per URL path, with who-may-do-what decided before the upgrade is accepted.
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { type WebSocket, WebSocketServer } from 'ws'
import { CloseCode, type Peer, type Role, type Room } from './room.js'
import { RoomRegistry } from './rooms.js'
import type { Relay } from './scale/relay.js'
import { checkRoom, type DocumentStore } from './storage/document-store.js'

/** What a connection may do, and who it is. */
export interface Authorization {
  readonly role: Role
  /** The user's id, for sessions and logs. */
  readonly user?: string
}

/** Thrown by an `authorize` hook to refuse a connection with an HTTP status and a reason. */
export class AuthRefusal extends Error {
  override readonly name = 'AuthRefusal'

  constructor(
    readonly status: 401 | 403,
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

/** Something that logs, as pino does. */
export interface Logger {
  info(fields: object, message?: string): void
  warn(fields: object, message?: string): void
  error(fields: object, message?: string): void
  debug(fields: object, message?: string): void
}

/** Options of `TandemServer`. */
export interface TandemServerOptions {
  readonly store: DocumentStore
  readonly authorize?: Authorize
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
  readonly logger?: Logger
}

const SILENT: Logger = { info() {}, warn() {}, error() {}, debug() {} }

/**
 * A y-websocket compatible server over a `DocumentStore`.
 *
 * @example
 * const server = new TandemServer({ store: SqliteStore.open({ file: 'data/tandem.sqlite' }) })
 * await server.listen(1234, '127.0.0.1')
 */
export class TandemServer {
  readonly http: Server
  private readonly sockets: WebSocketServer
  private readonly rooms: RoomRegistry
  private readonly logger: Logger
  private readonly pinger: NodeJS.Timeout
  private closing = false

  constructor(private readonly options: TandemServerOptions) {
    this.logger = options.logger ?? SILENT
    this.rooms = new RoomRegistry(options.store, {
      idleUnloadMs: options.idleUnloadMs,
      compactAfterUpdates: options.compactAfterUpdates,
      relay: options.relay,
      events: {
        storageFailed: (room, error) => {
          this.logger.error({ room, err: error }, 'storage failed')
          this.rooms.forget(room)
        },
        compacted: (room, size) => this.logger.debug({ room, ...size }, 'compacted'),
        refusedWrite: (room) =>
          this.logger.info({ room }, 'refused an update from a read-only connection'),
        sessionStorageFailed: (room, error) =>
          this.logger.warn({ room, err: error }, 'could not read or write a session'),
        relayFailed: (room, error) => this.logger.warn({ room, err: error }, 'relay failed'),
      },
    })
    this.sockets = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxMessageBytes ?? 32 * 1024 * 1024,
    })
    this.http = createServer((request, response) => void this.answerRequest(request, response))
    this.http.on(
      'upgrade',
      (request, socket, head) => void this.answerUpgrade(request, socket, head),
    )
    this.pinger = setInterval(() => this.pingAll(), options.pingIntervalMs ?? 30_000)
    this.pinger.unref()
  }

  /** Starts listening; resolves with the port (a free one when `port` is 0). */
  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    this.http.listen(port, host)
    await once(this.http, 'listening')
    return (this.http.address() as AddressInfo).port
  }

  /** The rooms in memory. */
  get openRooms(): string[] {
    return this.rooms.names
  }

  /**
   * Stops taking connections, waits until every received update is stored, closes every
   * connection (code 1001, going away) and the server.
   */
  async close(): Promise<void> {
    if (this.closing) return
    this.closing = true
    clearInterval(this.pinger)
    this.http.close()
    await this.rooms.closeAll()
    for (const socket of this.sockets.clients) socket.close(1001, 'server shutting down')
    this.sockets.close()
    this.http.closeAllConnections()
  }

  private async answerRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    if (path === '/healthz') return void response.writeHead(200).end('ok')
    // A client whose upgrade failed asks the same URL over HTTP to learn why (see `connect`).
    const access = await this.authorizeRequest(request)
    const headers = {
      'content-type': 'text/plain; charset=utf-8',
      'access-control-allow-origin': '*',
    }
    if ('refusal' in access) {
      return void response.writeHead(access.refusal.status, headers).end(access.refusal.reason)
    }
    response.writeHead(426, headers).end('this address takes WebSocket connections')
  }

  private async answerUpgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ): Promise<void> {
    socket.on('error', () => socket.destroy())
    if (this.closing) return refuseUpgrade(socket, 503, 'server shutting down')
    const access = await this.authorizeRequest(request)
    if ('refusal' in access)
      return refuseUpgrade(socket, access.refusal.status, access.refusal.reason)
    this.sockets.handleUpgrade(request, socket, head, (ws) => {
      void this.accept(ws, access.room, access.authorization)
    })
  }

  /** The room a request names and what it may do there, or why not. */
  private async authorizeRequest(
    request: IncomingMessage,
  ): Promise<{ room: string; authorization: Authorization } | { refusal: AuthRefusal | Refusal }> {
    const room = roomOf(request)
    if (room === null) return { refusal: new Refusal(400, 'the URL path must name a room') }
    try {
      const authorization = this.options.authorize
        ? await this.options.authorize(request, room)
        : { role: 'write' as const }
      return { room, authorization }
    } catch (error) {
      if (error instanceof AuthRefusal) return { refusal: error }
      this.logger.error({ room, err: error }, 'authorize failed')
      return { refusal: new Refusal(500, 'could not check access') }
    }
  }

  private async accept(
    ws: WebSocket,
    roomName: string,
    authorization: Authorization,
  ): Promise<void> {
    // A socket error (an oversized or invalid frame) closes that connection; without a
    // listener it would end the process.
    ws.on('error', (error) => this.logger.warn({ room: roomName, err: error }, 'connection error'))
    // Messages may arrive while the room loads: keep them, in order, until it has.
    const early: Uint8Array[] = []
    const keep = (data: Buffer) => early.push(new Uint8Array(data))
    ws.on('message', keep)
    let room: Room
    try {
      room = await this.rooms.open(roomName)
    } catch (error) {
      this.logger.error({ room: roomName, err: error }, 'could not load the room')
      return ws.close(CloseCode.storageFailed, 'could not load the document')
    }
    const peer = socketPeer(ws, authorization)
    ws.off('message', keep)
    if (ws.readyState !== ws.OPEN) return this.rooms.release(room)
    room.join(peer)
    const receive = (data: Uint8Array) => {
      try {
        room.receive(peer, data)
      } catch (error) {
        this.logger.warn({ room: roomName, err: error }, 'malformed message')
        ws.close(CloseCode.malformed, 'malformed message')
      }
    }
    ws.on('message', (data: Buffer) => receive(new Uint8Array(data)))
    ws.on('close', () => {
      room.leave(peer)
      this.rooms.release(room)
    })
    ws.on('pong', () => {
      alive.add(ws)
    })
    alive.add(ws)
    for (const data of early) receive(data)
    this.logger.debug(
      { room: roomName, role: authorization.role, user: authorization.user },
      'joined',
    )
  }

  private pingAll(): void {
    for (const ws of this.sockets.clients) {
      if (!alive.has(ws)) {
        ws.terminate()
        continue
      }
      alive.delete(ws)
      ws.ping()
    }
  }
}

/** Sockets that answered the last ping (or joined since). */
const alive = new WeakSet<WebSocket>()

/** A refusal that is not about auth: a bad URL, a failure of the server. */
class Refusal {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {}
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

const refuseUpgrade = (socket: Duplex, status: number, reason: string): void => {
  const body = Buffer.from(reason)
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${reason}`,
  )
}

/** The room a request's path names (URL-decoded), or null. */
const roomOf = (request: IncomingMessage): string | null => {
  try {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    const room = decodeURIComponent(path.slice(1))
    checkRoom(room)
    return room
  } catch {
    return null
  }
}

const socketPeer = (ws: WebSocket, { role, user }: Authorization): Peer => ({
  role,
  user,
  awarenessClients: new Set(),
  send(message) {
    if (ws.readyState === ws.OPEN) ws.send(message)
  },
  close(code, reason) {
    ws.close(code, reason)
  },
})
