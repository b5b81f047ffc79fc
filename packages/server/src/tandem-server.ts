/**
 * `TandemServer`: an HTTP server whose WebSocket upgrades speak the y-websocket protocol, one
 * room per URL path, with who-may-do-what decided before the upgrade is accepted.
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import {
  AuthCloseCode,
  MessageType,
  messageTypeOf,
  readTokenMessage,
  TOKEN_EXPIRED_REASON,
  UPGRADE_PROBE_ACCEPT,
} from '@tandem/protocol'
import * as decoding from 'lib0/decoding'
import { type WebSocket, WebSocketServer } from 'ws'
import { ConnectionAccess, checkAccess } from './connection-access.js'
import { ConnectionLimits, clientAddress, type LimitRefusal } from './connection-limits.js'
import { historyRoutes } from './history/history-api.js'
import { type RoomAccess, ServerHistory } from './history/server-history.js'
import { HttpApi } from './http-api.js'
import { METRICS_CONTENT_TYPE } from './metrics.js'
import {
  checkDuration,
  DEFAULT_HEADERS_TIMEOUT_MS,
  headerTimeouts,
  PendingSockets,
} from './pending-sockets.js'
import { changeLogRoutes } from './programs/change-log-routes.js'
import { DirectConnection, type OpenDocumentOptions } from './programs/direct-connection.js'
import { documentRoutes } from './programs/document-routes.js'
import { proposalRoutes } from './programs/proposal-routes.js'
import { ServerPrograms } from './programs/server-programs.js'
import { ServerProposals } from './programs/server-proposals.js'
import { streamRoute } from './programs/stream-route.js'
import {
  RATE_LIMIT_REASON,
  RateLimiter,
  type RateLimitKind,
  type RateLimits,
  rateLimitsWithDefaults,
} from './rate-limit.js'
import { CloseCode, type Peer, type Room } from './room.js'
import { awarenessLimitsWithDefaults } from './room-awareness.js'
import { RoomRegistry } from './rooms.js'
import { ServerMetrics } from './server-metrics.js'
import {
  type Authorization,
  AuthRefusal,
  type Logger,
  type TandemServerOptions,
} from './server-options.js'
import { type SendBounds, SocketPeer, sendBoundsWithDefaults } from './socket-peer.js'
import { checkAuthor, checkRoom } from './storage/document-store.js'
import { undoHistoryLimitsWithDefaults } from './undo-histories.js'
import { causeOf, pathOf, Refusal, refuseUpgrade, roomOf, STATUS_TEXT } from './upgrade-requests.js'

/** Where rooms are when the server also serves a web app: `ws://host/ws/<room>`. */
export const ROOM_PATH = '/ws/'

const SILENT: Logger = { info() {}, warn() {}, error() {}, debug() {} }

/**
 * A y-websocket compatible server over a `DocumentStore`.
 *
 * @example
 * const server = new TandemServer({ store: SqliteStore.open({ file: 'data/tandem.sqlite' }) })
 * await server.listen(1234, '127.0.0.1')
 */
export class TandemServer {
  /** The HTTP server that upgrades connections and serves the site. */
  readonly http: Server
  private readonly sockets: WebSocketServer
  private readonly rooms: RoomRegistry
  private readonly logger: Logger
  private readonly pinger: NodeJS.Timeout
  private readonly limits: ConnectionLimits
  /** Sockets not upgraded yet, per address; null behind a trusted proxy. */
  private readonly pending: PendingSockets | null
  private readonly rateLimits: Required<RateLimits>
  private readonly sendBounds: Required<SendBounds>
  /** Each connection's rate limiter. */
  private readonly limiters = new WeakMap<Peer, RateLimiter>()
  /** Every open connection, for the pings. */
  private readonly connections = new Set<SocketPeer>()
  /** What `/metrics` serves. */
  readonly metrics: ServerMetrics
  /** Who wrote what in every room, and their versions (see docs/history.md). */
  readonly history: ServerHistory
  /** Programs' proposals in every room: list, propose, accept, reject (see docs/agents.md). */
  readonly proposals: ServerProposals
  /** What programs changed in every room, and undoing it (see docs/agents.md). */
  readonly programs: ServerPrograms
  /** The HTTP API under `/api/rooms/`. */
  private readonly api: HttpApi
  private closing = false

  constructor(private readonly options: TandemServerOptions) {
    this.logger = options.logger ?? SILENT
    const maxMessageBytes = options.maxMessageBytes ?? 32 * 1024 * 1024
    this.limits = new ConnectionLimits({
      perRoom: options.maxConnectionsPerRoom,
      perAddress: options.maxConnectionsPerIp,
    })
    this.rateLimits = rateLimitsWithDefaults(options.rateLimits, maxMessageBytes)
    this.sendBounds = sendBoundsWithDefaults(options.sendBuffer)
    const headersTimeoutMs = checkDuration(
      'headersTimeoutMs',
      options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    )
    const pending = new PendingSockets(options.maxPendingSocketsPerIp)
    this.pending = options.trustProxy ? null : pending
    this.metrics = new ServerMetrics({
      connections: () => this.sockets.clients.size,
      rooms: () => this.rooms.names.length,
    })
    this.rooms = new RoomRegistry(options.store, {
      idleUnloadMs: options.idleUnloadMs,
      compactAfterUpdates: options.compactAfterUpdates,
      relay: options.relay,
      awarenessLimits: awarenessLimitsWithDefaults(options.awarenessLimits),
      hideReadOnlyPresence: options.hideReadOnlyPresence,
      maxUnstoredBytes: options.maxUnstoredBytes,
      versions: options.versions,
      textName: options.textName,
      undoHistoryLimits: undoHistoryLimitsWithDefaults(options.undoHistoryLimits),
      events: {
        storageFailed: (room, error) => {
          this.logger.error({ room, err: error }, 'storage failed')
          this.rooms.forget(room)
        },
        compacted: (room, size) => this.logger.debug({ room, ...size }, 'compacted'),
        stored: (_room, bytes, milliseconds) => this.metrics.stored(bytes, milliseconds),
        receivedUpdate: () => this.metrics.updatesReceived.inc(),
        readOnlyUpdate: (room, peer, refused) => {
          if (refused) {
            this.logger.info({ room }, 'refused an update from a read-only connection')
            this.metrics.refusedWrites.inc()
          }
          const over = this.limiters.get(peer)?.readOnlyUpdate()
          if (over) this.closeForRate(peer, room, over)
        },
        awarenessRefused: (room, _peer, reason) => {
          this.logger.warn({ room, reason }, 'closed a connection for its awareness update')
          this.metrics.awarenessRefusals.inc({ reason: 'invalid' })
        },
        awarenessClaimRefused: (room, peer, client) => {
          this.logger.info(
            { room, client, user: peer.user },
            "refused a change to another connection's awareness state",
          )
          this.metrics.awarenessRefusals.inc({ reason: 'claimed' })
          const over = this.limiters.get(peer)?.refusedAwarenessChange()
          if (over) this.closeForRate(peer, room, over)
        },
        relayedClaimRefused: (room, client) => {
          this.logger.warn(
            { room, client },
            "refused another instance's change to the awareness state of a connection here",
          )
          this.metrics.awarenessRefusals.inc({ reason: 'claimed_relayed' })
        },
        applyFailed: (room, error) => {
          this.logger.error({ room, err: error }, 'a stored update could not be applied')
          this.metrics.applyFailures.inc()
        },
        listenerFailed: (room, error) =>
          this.logger.error({ room, err: error }, 'a listener failed after an update was stored'),
        sessionStorageFailed: (room, error) =>
          this.logger.warn({ room, err: error }, 'could not read or write a session'),
        sessionWritesDropped: (room, peer, first) => {
          this.metrics.sessionWritesDropped.inc()
          // Once per connection: the drops that follow are only counted.
          if (first) {
            this.logger.warn(
              { room, user: peer.user },
              'dropped sessions of a connection over its session write rate',
            )
          }
        },
        undoHistoryStorageFailed: (room, error) =>
          this.logger.warn({ room, err: error }, 'could not read or write an undo history'),
        undoHistoryTrimmed: (room, dropped) =>
          this.logger.debug({ room, dropped }, 'dropped the oldest steps of an undo history'),
        relayFailed: (room, error) => this.logger.warn({ room, err: error }, 'relay failed'),
        versionFailed: (room, error) =>
          this.logger.warn({ room, err: error }, 'could not make or thin an automatic version'),
      },
    })
    const roomAccess: RoomAccess = {
      withRoom: async (name, work) => {
        const room = await this.rooms.open(name)
        try {
          return await work(room)
        } finally {
          this.rooms.release(room)
        }
      },
    }
    this.history = new ServerHistory(roomAccess)
    this.programs = new ServerPrograms(
      {
        ...roomAccess,
        open: (name) => this.rooms.open(name),
        release: (room) => this.rooms.release(room),
      },
      options.programs,
      {
        store: options.store,
        failed: (room, error) =>
          this.logger.warn({ room, err: error }, "the store failed to keep programs' changes"),
      },
    )
    this.proposals = new ServerProposals(roomAccess, this.programs.log)
    this.api = new HttpApi(
      [
        ...documentRoutes(roomAccess, this.programs),
        streamRoute(roomAccess, this.programs),
        ...changeLogRoutes(this.programs),
        ...historyRoutes(this.history),
        ...proposalRoutes(roomAccess, this.programs.log),
      ],
      (request, room) =>
        this.authorizeRoom(request, room, clientAddress(request, this.options.trustProxy ?? false)),
      (error) => this.logger.error({ err: error }, 'an API request failed'),
      (request) => clientAddress(request, this.options.trustProxy ?? false),
      { perSecond: this.rateLimits.apiRequestsPerSecond, burst: this.rateLimits.apiRequestBurst },
    )
    this.sockets = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes })
    // Failures here are bugs, not one client's doing: log them, and keep the process up.
    this.http = createServer(headerTimeouts(headersTimeoutMs), (request, response) => {
      this.answerRequest(request, response).catch((error: unknown) => {
        this.logger.error({ err: error }, 'request failed')
        if (!response.headersSent) response.writeHead(500)
        response.end()
      })
    })
    this.http.on('connection', (socket: Socket) => this.admitSocket(socket))
    this.http.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
      this.answerClientError(error, socket as Socket),
    )
    this.http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.pending?.release(socket as Socket)
      this.answerUpgrade(request, socket, head).catch((error: unknown) => {
        this.logger.error({ err: error }, 'upgrade failed')
        socket.destroy()
      })
    })
    this.pinger = setInterval(() => this.pingAll(), options.pingIntervalMs ?? 30_000)
    this.pinger.unref()
  }

  /** Starts listening; resolves with the port (a free one when `port` is 0). */
  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    this.http.listen(port, host)
    await once(this.http, 'listening')
    return (this.http.address() as AddressInfo).port
  }

  /**
   * Opens `room` for a program in this process: a `Y.Doc` and an awareness of its own, synced
   * with the room (loaded here if needed; with a relay, it may be open on other instances too).
   * Its changes are stored before anyone sees them and attributed to `options.user`; its
   * presence shows to everyone, marked as a program, until `close()`.
   *
   * @example const bot = await server.openDocument('notes', { user: 'formatter-bot' }); await bot.whenSynced
   */
  async openDocument(room: string, options: OpenDocumentOptions): Promise<DirectConnection> {
    checkRoom(room)
    checkAuthor({ user: options?.user, time: 0 })
    if (this.closing) throw new Error('the server is shutting down')
    const opened = await this.rooms.open(room)
    const logged = options.agent !== false && (options.role ?? 'write') === 'write'
    const connection = new DirectConnection(opened, options, () => this.rooms.release(opened))
    if (logged) {
      this.programs.follow(connection, opened, options.user, (error) =>
        this.logger.warn({ room, err: error }, "could not log a program's change"),
      )
    }
    await connection.whenSynced
    return connection
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
    this.programs.dispose()
    this.http.close()
    await this.programs.saved()
    await this.rooms.closeAll()
    for (const socket of this.sockets.clients) socket.close(1001, 'server shutting down')
    this.sockets.close()
    this.http.closeAllConnections()
  }

  /** Counts a new socket as pending; one over its address's cap is destroyed at once. */
  private admitSocket(socket: Socket): void {
    if (this.pending === null) return
    const admission = this.pending.admit(socket)
    if (admission === 'admitted') return
    this.metrics.connectionsRefused.inc({ reason: 'pending_limit' })
    // Once per address while it stays at its cap: a flood of sockets is not a flood of lines.
    if (admission === 'refused') {
      this.logger.warn(
        { address: socket.remoteAddress, limit: this.pending.max },
        'destroyed sockets over the pending limit of an address',
      )
    }
    socket.destroy()
  }

  /**
   * Answers a socket whose request could not be read, as Node does without a listener (400, or
   * 431 for headers too large), and one whose headers took too long with 408, logged and
   * counted; then closes it.
   */
  private answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
    let status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      status = 408
      this.logger.info(
        { address: socket.remoteAddress },
        'closed a socket whose request headers were too slow',
      )
      this.metrics.connectionsRefused.inc({ reason: 'headers_timeout' })
    }
    if (socket.writable && socket.bytesWritten === 0) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nConnection: close\r\n\r\n`,
      )
    }
    this.pending?.release(socket)
    socket.destroy()
  }

  private async answerRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = pathOf(request)
    if (path === '/healthz') return void response.writeHead(200).end('ok')
    if (this.api.handles(path)) return this.api.answer(request, response)
    if (path === '/metrics') {
      return void response
        .writeHead(200, { 'content-type': METRICS_CONTENT_TYPE })
        .end(this.metrics.render())
    }
    const { site } = this.options
    const probe = request.headers.accept === UPGRADE_PROBE_ACCEPT
    if (site && !probe && path !== null && !path.startsWith(ROOM_PATH)) {
      return site.answer(request, response)
    }
    if (site && !probe && path === ROOM_PATH) return this.listRooms(response)
    // A client whose upgrade failed asks the same URL over HTTP to learn why (see `connect`).
    const address = clientAddress(request, this.options.trustProxy ?? false)
    const access = await this.authorizeRequest(request, address)
    const refusal = 'refusal' in access ? access.refusal : this.limits.check(access.room, address)
    const headers = {
      'content-type': 'text/plain; charset=utf-8',
      'access-control-allow-origin': '*',
    }
    if (refusal) return void response.writeHead(refusal.status, headers).end(refusal.reason)
    response.writeHead(426, headers).end('this address takes WebSocket connections')
  }

  /** Answers `GET /ws/` with the stored rooms; a server checking access does not tell them. */
  private async listRooms(response: ServerResponse): Promise<void> {
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    }
    if (this.options.authorize) {
      return void response.writeHead(403, headers).end('{"error":"the room list is not public"}')
    }
    try {
      const rooms = await this.options.store.listRooms()
      response.writeHead(200, headers).end(JSON.stringify({ rooms }))
    } catch (error) {
      this.logger.error({ err: error }, 'could not list the rooms')
      response.writeHead(500, headers).end('{"error":"could not list the rooms"}')
    }
  }

  private async answerUpgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ): Promise<void> {
    socket.on('error', () => socket.destroy())
    const refuse = (refusal: AuthRefusal | Refusal | LimitRefusal) => {
      const cause = causeOf(refusal)
      this.logger.info(
        { status: refusal.status, reason: refusal.reason, cause, url: request.url?.slice(0, 200) },
        'refused an upgrade',
      )
      this.metrics.connectionsRefused.inc({ reason: cause })
      refuseUpgrade(socket, refusal.status, refusal.reason)
    }
    if (this.closing) return refuse(new Refusal(503, 'server shutting down'))
    const address = clientAddress(request, this.options.trustProxy ?? false)
    const access = await this.authorizeRequest(request, address)
    if ('refusal' in access) return refuse(access.refusal)
    // Checked and taken at once, after the last wait, so concurrent upgrades count right.
    const admitted = this.limits.admit(access.room, address)
    if ('refusal' in admitted) return refuse(admitted.refusal)
    // The slot is the socket's, given back however the socket ends.
    socket.once('close', admitted.release)
    if (socket.destroyed) return admitted.release()
    this.sockets.handleUpgrade(request, socket, head, (ws) => {
      this.accept(ws, access.room, access.authorization, address).catch((error: unknown) => {
        this.logger.error({ room: access.room, err: error }, 'could not accept a connection')
        ws.terminate()
      })
    })
  }

  /**
   * The room a request names and what it may do there, or why not. An address already at
   * its limit is refused before `authorize` runs, so a flood costs it nothing.
   */
  private async authorizeRequest(
    request: IncomingMessage,
    address: string,
  ): Promise<
    | { room: string; authorization: Authorization }
    | { refusal: AuthRefusal | Refusal | LimitRefusal }
  > {
    const prefix = this.options.site ? ROOM_PATH : '/'
    const named = roomOf(request, prefix)
    if ('reason' in named) return { refusal: new Refusal(400, named.reason) }
    return this.authorizeRoom(request, named.room, address)
  }

  /** What a request may do in `room`, or why nothing (an address at its limit is refused first). */
  private async authorizeRoom(
    request: IncomingMessage,
    room: string,
    address: string,
  ): Promise<
    | { room: string; authorization: Authorization }
    | { refusal: AuthRefusal | Refusal | LimitRefusal }
  > {
    const tooMany = this.limits.checkAddress(address)
    if (tooMany) return { refusal: tooMany }
    try {
      const authorization: Authorization = this.options.authorize
        ? checkAccess(await this.options.authorize(request, room))
        : { role: 'write' }
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
    address: string,
  ): Promise<void> {
    // A socket error (an oversized or invalid frame) closes that connection; without a
    // listener it would end the process.
    ws.on('error', (error) => this.logger.warn({ room: roomName, err: error }, 'connection error'))
    this.metrics.connectionsOpened.inc()
    const access = new ConnectionAccess(authorization, () => {
      this.logger.info({ room: roomName, user: access.user }, 'closed a connection: token expired')
      this.metrics.tokenExpiredCloses.inc()
      ws.close(AuthCloseCode.unauthorized, TOKEN_EXPIRED_REASON)
    })
    ws.once('close', () => access.dispose())
    const peer = this.socketPeer(ws, roomName, access, address)
    this.connections.add(peer)
    ws.once('close', () => this.connections.delete(peer))
    const limiter = new RateLimiter(this.rateLimits)
    this.limiters.set(peer, limiter)
    // Messages may arrive while the room loads: keep them, in order, until it has.
    const early: Uint8Array[] = []
    let deliver = (data: Uint8Array) => {
      early.push(data)
    }
    // Messages that arrive while a handed-over token is checked wait for its verdict, so that
    // each is judged under the access its client meant.
    let waiting: Uint8Array[] | null = null
    const take = (data: Uint8Array): void => {
      if (waiting !== null) {
        waiting.push(data)
        return
      }
      if (messageTypeOf(data) !== MessageType.token || !this.options.authorizeToken) {
        deliver(data)
        return
      }
      waiting = []
      void this.takeToken(ws, access, roomName, data).then(() => {
        const held = waiting ?? []
        waiting = null
        for (const data of held) {
          if (ws.readyState !== ws.OPEN) break
          take(data)
        }
      })
    }
    ws.on('message', (data: Buffer) => {
      if (ws.readyState !== ws.OPEN) return
      this.metrics.bytesReceived.inc({}, data.length)
      const over = limiter.message(data.length)
      if (over) return this.closeForRate(peer, roomName, over)
      take(new Uint8Array(data))
    })
    let room: Room
    try {
      room = await this.rooms.open(roomName)
    } catch (error) {
      this.logger.error({ room: roomName, err: error }, 'could not load the room')
      return ws.close(CloseCode.storageFailed, 'could not load the document')
    }
    if (ws.readyState !== ws.OPEN) return this.rooms.release(room)
    try {
      room.join(peer)
    } catch (error) {
      // The room's storage failed while this connection waited for it.
      this.logger.error({ room: roomName, err: error }, 'could not join the room')
      return ws.close(CloseCode.storageFailed, 'could not load the document')
    }
    const receive = (data: Uint8Array) => {
      try {
        room.receive(peer, data)
      } catch (error) {
        this.logger.warn({ room: roomName, err: error }, 'malformed message')
        this.metrics.malformedCloses.inc()
        ws.close(CloseCode.malformed, 'malformed message')
      }
    }
    deliver = receive
    ws.on('close', () => {
      room.leave(peer)
      this.rooms.release(room)
    })
    for (const data of early.splice(0)) {
      if (ws.readyState !== ws.OPEN) break
      receive(data)
    }
    this.logger.debug(
      { room: roomName, role: authorization.role, user: authorization.user },
      'joined',
    )
  }

  /**
   * Checks the token of a `MessageType.token` message from `ws` and, when it is good and for
   * the same user, makes its role and expiry the connection's; otherwise closes the connection
   * with 4401 or 4403 and the reason. Never rejects.
   */
  private async takeToken(
    ws: WebSocket,
    access: ConnectionAccess,
    room: string,
    data: Uint8Array,
  ): Promise<void> {
    const refuse = (code: number, reason: string) => {
      this.logger.warn({ room, user: access.user, reason }, 'refused a token handed over')
      this.metrics.tokenRenewals.inc({ outcome: 'refused' })
      ws.close(code, reason)
    }
    let token: string
    try {
      const decoder = decoding.createDecoder(data)
      decoding.readVarUint(decoder)
      token = readTokenMessage(decoder)
    } catch (error) {
      this.logger.warn({ room, err: error }, 'malformed message')
      this.metrics.malformedCloses.inc()
      return ws.close(CloseCode.malformed, 'malformed message')
    }
    let fresh: Authorization
    try {
      fresh = checkAccess(await this.options.authorizeToken!(token, room))
    } catch (error) {
      if (error instanceof AuthRefusal) return refuse(4000 + error.status, error.reason)
      this.logger.error({ room, err: error }, 'authorizeToken failed')
      return ws.close(INTERNAL_ERROR, 'could not check the token')
    }
    if (ws.readyState !== ws.OPEN) return
    const refused = access.renew(fresh)
    if (refused !== null) return refuse(AuthCloseCode.forbidden, refused)
    this.metrics.tokenRenewals.inc({ outcome: 'accepted' })
    this.logger.debug(
      { room, user: access.user, role: access.role, expiresAt: access.expiresAt },
      'took a fresh token',
    )
  }

  /** Closes `peer`'s connection for going over the rate limit `kind`. */
  private closeForRate(peer: Peer, room: string, kind: RateLimitKind): void {
    this.logger.warn({ room, limit: kind }, 'closed a connection over its rate limit')
    this.metrics.rateLimitCloses.inc({ limit: kind })
    peer.close(CloseCode.policy, RATE_LIMIT_REASON[kind])
  }

  private pingAll(): void {
    for (const peer of this.connections) peer.heartbeat()
  }

  /**
   * `ws` as a room's peer, its sends and closes counted and logged; its role and user are
   * `access`'s, which a fresh token may change.
   */
  private socketPeer(
    ws: WebSocket,
    room: string,
    access: ConnectionAccess,
    address: string,
  ): SocketPeer {
    return new SocketPeer(ws, access, address, this.sendBounds, {
      sent: (bytes) => this.metrics.bytesSent.inc({}, bytes),
      closedUnread: (unsent) => {
        this.logger.warn({ room, unsent }, 'closed a connection that does not read')
        this.metrics.unreadCloses.inc()
      },
      replyFailed: (error) => this.logger.error({ room, err: error }, 'could not build a reply'),
    })
  }
}

/** The WebSocket close code of a failure of the server itself. */
const INTERNAL_ERROR = 1011
