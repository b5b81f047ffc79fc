/**
 * A WebSocket connection as a room's `Peer`, with bounded memory: what the server sends a
 * connection waits in its socket until the client reads it, so a client that never reads
 * would otherwise grow the server without end.
 *
 * - Past `pauseAt` unsent bytes, the connection's own messages are no longer read (TCP then
 *   holds its sender back) and replies wait: each kind of reply is built once the connection
 *   is back under the bound, and a later one replaces one not yet built. A flood of requests
 *   costs one reply.
 * - Once its unsent bytes pass `closeAt`, not counting the last reply (a whole document may be
 *   larger than any bound), the connection is closed with 1008: it has stopped reading, and
 *   what it would need is cheaper to send again when it reconnects. So a connection holds at
 *   most `closeAt`, one reply and one more message.
 */
import type { WebSocket } from 'ws'
import type { Peer, ReplyKind, Role } from './room.js'

/** How many unsent bytes a connection may have. */
export interface SendBounds {
  /** Over this many, the connection is not read and replies wait (default 1 MiB). */
  readonly pauseAt?: number
  /** Over this many besides its last reply, the connection is closed (default 16 MiB). */
  readonly closeAt?: number
}

/** What a `SocketPeer` reports. */
export interface SocketPeerHooks {
  /** `bytes` were handed to the socket. */
  sent(bytes: number): void
  /** The connection was closed with `unsent` bytes it did not read. */
  closedUnread(unsent: number): void
  /** Building a reply threw; nothing was sent for it. */
  replyFailed(error: unknown): void
}

/** The reason a connection that stopped reading is closed with. */
export const UNREAD_REASON = 'too much unsent: the connection does not read what it is sent'

const MiB = 1024 * 1024

/** How long a connection closed for not reading has to read its close frame. */
const UNREAD_GRACE_MS = 5_000

/** The longest close reason the WebSocket protocol carries, in UTF-8 bytes. */
const MAX_REASON_BYTES = 123

/**
 * `bounds` with the defaults filled in; throws a `RangeError` naming a bad value.
 *
 * @example sendBoundsWithDefaults({ pauseAt: 512 * 1024 }).closeAt // => 16 MiB
 */
export const sendBoundsWithDefaults = (bounds: SendBounds = {}): Required<SendBounds> => {
  const filled = { pauseAt: bounds.pauseAt ?? MiB, closeAt: bounds.closeAt ?? 16 * MiB }
  for (const [name, value] of Object.entries(filled)) {
    if (typeof value !== 'number' || !(value > 0)) {
      throw new RangeError(`sendBuffer.${name} must be a positive number, got ${value}`)
    }
  }
  if (filled.closeAt < filled.pauseAt) {
    throw new RangeError(
      `sendBuffer.closeAt (${filled.closeAt}) must be at least sendBuffer.pauseAt (${filled.pauseAt})`,
    )
  }
  return filled
}

/**
 * A room's peer over a `ws` WebSocket.
 *
 * @example const peer = new SocketPeer(ws, { role: 'write', user: 'ada' }, '10.0.0.7', bounds, hooks)
 */
export class SocketPeer implements Peer {
  /** Replies asked for while over the bound, by kind, oldest first. */
  private readonly waiting = new Map<ReplyKind, () => Uint8Array | null>()
  /** The size of the last reply sent, which may exceed `closeAt` on its own. */
  private allowance = 0
  /** Unsent bytes at the last ping, to tell a slow reader from a dead one. */
  private unsentAtPing = 0
  private answeredPing = true

  constructor(
    private readonly ws: WebSocket,
    /** Who the connection is; read at each use, since a fresh token may change the role. */
    private readonly who: { readonly role: Role; readonly user?: string | undefined },
    /** The client's address. */
    readonly address: string | undefined,
    private readonly bounds: Required<SendBounds>,
    private readonly hooks: SocketPeerHooks,
  ) {
    ws.on('pong', () => {
      this.answeredPing = true
    })
  }

  get role(): Role {
    return this.who.role
  }

  get user(): string | undefined {
    return this.who.user
  }

  /** Bytes handed to the socket that the client has not read yet. */
  get unsent(): number {
    return this.ws.bufferedAmount
  }

  send(message: Uint8Array): void {
    if (this.ws.readyState !== this.ws.OPEN) return
    this.write(message)
  }

  reply(kind: ReplyKind, build: () => Uint8Array | null): void {
    if (this.ws.readyState !== this.ws.OPEN) return
    this.waiting.delete(kind)
    this.waiting.set(kind, build)
    this.sendWaiting()
  }

  close(code: number, reason: string): void {
    this.waiting.clear()
    this.ws.close(code, fitReason(reason))
  }

  /**
   * Pings the connection; returns false (and terminates it) when it answered neither the last
   * ping nor read anything since. A paused connection cannot read its pongs, so progress in
   * reading what it was sent counts as an answer.
   */
  heartbeat(): boolean {
    const unsent = this.ws.bufferedAmount
    const readSome = this.ws.isPaused && unsent < this.unsentAtPing
    if (!this.answeredPing && !readSome) {
      this.ws.terminate()
      return false
    }
    this.answeredPing = false
    this.unsentAtPing = unsent
    this.ws.ping()
    return true
  }

  private write(message: Uint8Array): void {
    this.hooks.sent(message.length)
    this.ws.send(message, this.written)
    const unsent = this.ws.bufferedAmount
    if (unsent > this.bounds.closeAt + this.allowance) {
      this.closeUnread(unsent)
    } else if (unsent >= this.bounds.pauseAt && !this.ws.isPaused) {
      this.ws.pause()
    }
  }

  /** Called as the socket takes each message: below the bound, read again and reply. */
  private readonly written = (): void => {
    if (this.ws.readyState !== this.ws.OPEN) return
    if (this.ws.bufferedAmount >= this.bounds.pauseAt) return
    this.allowance = 0
    this.sendWaiting()
    if (this.ws.isPaused && this.ws.bufferedAmount < this.bounds.pauseAt) this.ws.resume()
  }

  /**
   * Closes a connection that does not read. Its close frame waits behind what it has not
   * read, so a client that reads again soon learns why; one that does not is cut off after a
   * few seconds rather than the 30 s a closing handshake may take, to free what it holds.
   */
  private closeUnread(unsent: number): void {
    this.hooks.closedUnread(unsent)
    this.close(1008, UNREAD_REASON)
    const timer = setTimeout(() => {
      if (this.ws.readyState !== this.ws.CLOSED) this.ws.terminate()
    }, UNREAD_GRACE_MS)
    timer.unref()
  }

  /** Builds and sends waiting replies while the connection is under the bound. */
  private sendWaiting(): void {
    for (const [kind, build] of this.waiting) {
      if (this.ws.bufferedAmount >= this.bounds.pauseAt) return
      this.waiting.delete(kind)
      let message: Uint8Array | null
      try {
        message = build()
      } catch (error) {
        this.hooks.replyFailed(error)
        continue
      }
      if (message === null) continue
      this.allowance = message.length
      this.write(message)
    }
  }
}

/** `reason` cut to what a close frame carries, on a character boundary. */
const fitReason = (reason: string): string => {
  if (Buffer.byteLength(reason) <= MAX_REASON_BYTES) return reason
  let cut = reason
  while (Buffer.byteLength(cut) > MAX_REASON_BYTES - 3) cut = cut.slice(0, -1)
  return `${cut}...`
}
