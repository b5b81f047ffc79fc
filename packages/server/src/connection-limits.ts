/**
 * How many connections may be open at once on one room and from one client address. A slot
 * is taken before the WebSocket handshake and given back when the connection's socket
 * closes, whatever ended it (a refused handshake, a room that failed to load, a normal close).
 */
import type { IncomingMessage } from 'node:http'

/** Limits on connections open at once. `Infinity` turns one off. */
export interface ConnectionLimitOptions {
  /** Per room (default 1000). */
  readonly perRoom?: number
  /** Per client address (default 100). */
  readonly perAddress?: number
}

/** Why a connection is refused: the HTTP status, the reason told, and a label for metrics. */
export interface LimitRefusal {
  readonly status: 429 | 503
  readonly reason: string
  readonly cause: 'room_full' | 'address_limit'
}

/**
 * Counts connections per room and per address.
 *
 * @example
 * const admitted = limits.admit('notes', '10.0.0.7')
 * if ('refusal' in admitted) refuse(admitted.refusal)
 * else socket.once('close', admitted.release)
 */
export class ConnectionLimits {
  readonly perRoom: number
  readonly perAddress: number
  private readonly rooms = new Map<string, number>()
  private readonly addresses = new Map<string, number>()

  constructor(options: ConnectionLimitOptions = {}) {
    this.perRoom = checkLimit('maxConnectionsPerRoom', options.perRoom ?? 1000)
    this.perAddress = checkLimit('maxConnectionsPerIp', options.perAddress ?? 100)
  }

  /** Why one more connection from `address` would be refused, or null. */
  checkAddress(address: string): LimitRefusal | null {
    if ((this.addresses.get(address) ?? 0) < this.perAddress) return null
    return {
      status: 429,
      reason: `too many connections from this address (limit ${this.perAddress})`,
      cause: 'address_limit',
    }
  }

  /** Why one more connection to `room` from `address` would be refused, or null. */
  check(room: string, address: string): LimitRefusal | null {
    const byAddress = this.checkAddress(address)
    if (byAddress) return byAddress
    if ((this.rooms.get(room) ?? 0) < this.perRoom) return null
    return {
      status: 503,
      reason: `this room is full (connection limit ${this.perRoom})`,
      cause: 'room_full',
    }
  }

  /** Takes a slot for a connection, or says why not; `release` (safe to call twice) frees it. */
  admit(room: string, address: string): { release: () => void } | { refusal: LimitRefusal } {
    const refusal = this.check(room, address)
    if (refusal) return { refusal }
    add(this.rooms, room, 1)
    add(this.addresses, address, 1)
    let released = false
    return {
      release: () => {
        if (released) return
        released = true
        add(this.rooms, room, -1)
        add(this.addresses, address, -1)
      },
    }
  }

  /** Connections counted on `room`. */
  inRoom(room: string): number {
    return this.rooms.get(room) ?? 0
  }

  /** Connections counted from `address`. */
  fromAddress(address: string): number {
    return this.addresses.get(address) ?? 0
  }
}

/**
 * The client address of `request`: the socket's peer, or with `trustProxy` the last
 * `X-Forwarded-For` entry (the one the proxy in front of this server added: only right when
 * exactly one trusted proxy forwards to it). IPv4 addresses mapped into IPv6 are unwrapped.
 *
 * @example clientAddress(request, false) // '127.0.0.1'
 */
export const clientAddress = (request: IncomingMessage, trustProxy: boolean): string => {
  if (trustProxy) {
    const header = request.headers['x-forwarded-for']
    const list = Array.isArray(header) ? header.join(',') : header
    const last = list?.split(',').at(-1)?.trim()
    if (last) return unmapped(last)
  }
  return unmapped(request.socket.remoteAddress ?? 'unknown')
}

const unmapped = (address: string): string =>
  address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address

const checkLimit = (name: string, value: number): number => {
  if (
    typeof value !== 'number' ||
    !(value >= 1) ||
    !(Number.isInteger(value) || value === Infinity)
  ) {
    throw new RangeError(`${name} must be a positive integer or Infinity, got ${value}`)
  }
  return value
}

const add = (counts: Map<string, number>, key: string, by: number): void => {
  const count = (counts.get(key) ?? 0) + by
  if (count > 0) counts.set(key, count)
  else counts.delete(key)
}
