/**
 * Sockets that have not become WebSocket connections yet, counted per client address: from the
 * moment one connects until its upgrade request has arrived, or until it closes. Such a socket
 * costs the server memory and a file descriptor while it sends its headers, and nothing else
 * bounds how many one address holds (the connection limits count upgrades, which need the
 * headers first). Plain HTTP connections (the web app's files, `/metrics`) count too, for as
 * long as they stay open: a browser keeps up to six of them alive for a few seconds.
 *
 * The address is the socket's peer: nothing of the request is known yet. Behind a trusted
 * proxy every socket comes from the proxy, so there is no cap; the proxy bounds its clients.
 */
import type { Socket } from 'node:net'

/** Sockets one address may hold before they upgrade, unless the server is told otherwise. */
export const DEFAULT_MAX_PENDING_SOCKETS_PER_IP = 50

/** How long a request's headers may take to arrive unless the server is told otherwise. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000

/** What `PendingSockets.admit` decided. */
export type Admission = 'admitted' | 'refused' | 'refused again'

/**
 * The pending sockets of every address, against a cap per address.
 *
 * @example
 * http.on('connection', (socket) => { if (pending.admit(socket) !== 'admitted') socket.destroy() })
 * http.on('upgrade', (request, socket) => pending.release(socket))
 */
export class PendingSockets {
  private readonly counts = new Map<string, number>()
  /** How each counted socket is given back (once). */
  private readonly releases = new WeakMap<Socket, () => void>()
  /** Addresses refused since they were last under their cap: told once per episode. */
  private readonly refusing = new Set<string>()

  constructor(
    /** The cap per address: a positive integer, or `Infinity` for none. */
    readonly max: number = DEFAULT_MAX_PENDING_SOCKETS_PER_IP,
  ) {
    checkCount('maxPendingSocketsPerIp', max)
  }

  /**
   * Counts `socket` under its peer address until it upgrades or closes; or, when that address
   * is at its cap, says `refused` (the first time since it was under it) or `refused again`,
   * and the caller destroys the socket.
   */
  admit(socket: Socket): Admission {
    const address = peerOf(socket)
    const count = this.counts.get(address) ?? 0
    if (count >= this.max) {
      if (this.refusing.has(address)) return 'refused again'
      this.refusing.add(address)
      return 'refused'
    }
    this.counts.set(address, count + 1)
    let released = false
    const release = () => {
      if (released) return
      released = true
      const left = (this.counts.get(address) ?? 1) - 1
      if (left > 0) this.counts.set(address, left)
      else this.counts.delete(address)
      if (left < this.max) this.refusing.delete(address)
    }
    this.releases.set(socket, release)
    socket.once('close', release)
    return 'admitted'
  }

  /**
   * Stops counting `socket`: its upgrade request arrived, or the server is closing it (its own
   * 'close' comes a turn of the event loop later, after new sockets may have been counted).
   */
  release(socket: Socket): void {
    this.releases.get(socket)?.()
  }

  /** Pending sockets counted from `address`. */
  from(address: string): number {
    return this.counts.get(address) ?? 0
  }
}

/** The peer address of `socket`, IPv4 addresses mapped into IPv6 unwrapped. */
const peerOf = (socket: Socket): string => {
  const address = socket.remoteAddress ?? 'unknown'
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address
}

/** Throws a `RangeError` naming `name` unless `value` is a positive integer or `Infinity`. */
export const checkCount = (name: string, value: number): number => {
  if (!(value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value > 0))) {
    throw new RangeError(`${name} must be a positive integer or Infinity, got ${value}`)
  }
  return value
}

/** Throws a `RangeError` naming `name` unless `value` is a positive number of ms or `Infinity`. */
export const checkDuration = (name: string, value: number): number => {
  if (!(typeof value === 'number' && value > 0)) {
    throw new RangeError(
      `${name} must be a positive number of milliseconds or Infinity, got ${value}`,
    )
  }
  return value
}

/**
 * The options of Node's `http.createServer` that bound the time a request's headers may take
 * (`headersTimeoutMs`, `Infinity` for no bound), checked often enough to hold the bound within
 * a second: Node looks for expired requests only every `connectionsCheckingInterval`, 30 s
 * unless told, which let a slow socket live about a minute and a half.
 *
 * @example createServer(headerTimeouts(10_000), handler)
 */
export const headerTimeouts = (
  headersTimeoutMs: number,
): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval?: number } => {
  if (headersTimeoutMs === Number.POSITIVE_INFINITY) return { headersTimeout: 0, requestTimeout: 0 }
  const bound = Math.ceil(headersTimeoutMs)
  // Requests here have no body: the whole request is due when its headers are.
  return {
    headersTimeout: bound,
    requestTimeout: bound,
    connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(bound / 4))),
  }
}
