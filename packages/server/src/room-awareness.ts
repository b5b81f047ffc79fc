/**
 * A room's awareness: who is here and where their carets are, as y-protocols' `Awareness`
 * holds it, with the rules the server adds before a state is applied.
 *
 * - Every state is checked first (`readAwarenessUpdate` of `@tandem/protocol`): one peer's state is sent to every
 *   peer that joins, so it must never be able to make a join fail.
 * - A client id belongs to the first connection that set a state for it, until that state is
 *   removed (the connection leaves, or the state times out). Another connection may change it
 *   only if it speaks for the same party: the same authenticated user, or, on a server that
 *   authenticates nobody, the same client address. That is how the tabs of one browser relay
 *   each other's states (y-websocket forwards what arrives over BroadcastChannel). Anyone
 *   else's change is refused and reported; stock clients also echo every state they receive,
 *   with the clock the room already has, and such echoes change nothing and are ignored.
 * - With other instances, a client id seen first from another instance belongs to that
 *   instance: this instance's connections cannot change it, and no instance can change the
 *   states of this instance's connections. A client that reconnects to a third instance (its
 *   first one died, say) moves there with its state, since every instance enforces these rules
 *   for its own connections; through this instance, it shows again once its old state has
 *   timed out here.
 */
import {
  type AwarenessEntry,
  type AwarenessLimits,
  AwarenessRefusal,
  encodeAwarenessEntries,
  readAwarenessUpdate,
} from '@tandem/protocol'
import * as awarenessProtocol from 'y-protocols/awareness'
import type * as Y from 'yjs'
import type { Peer } from './peer.js'

/** Bounds on the awareness states a room applies; a state over one closes its sender. */
export interface AwarenessStateLimits {
  /** Most bytes of one state's JSON text (default 4 MiB: 10,000 selections and a name fit). */
  readonly maxStateBytes: number
  /** Most bytes of the states one connection sets, summed (default 8 MiB). */
  readonly maxBytesPerConnection: number
  /** Deepest nesting of arrays and objects in one state (default 32; a caret is 5 deep). */
  readonly maxDepth: number
}

/** The bounds on awareness states unless told otherwise. */
export const DEFAULT_AWARENESS_LIMITS: AwarenessStateLimits = {
  maxStateBytes: 4 * 1024 * 1024,
  maxBytesPerConnection: 8 * 1024 * 1024,
  maxDepth: 32,
}

/**
 * `limits` with the defaults filled in; throws a `RangeError` naming a value that is not a
 * positive number.
 *
 * @example awarenessLimitsWithDefaults({ maxDepth: 16 }).maxStateBytes // => 4 MiB
 */
export const awarenessLimitsWithDefaults = (
  limits: Partial<AwarenessStateLimits> = {},
): AwarenessStateLimits => {
  const filled = { ...DEFAULT_AWARENESS_LIMITS, ...limits }
  for (const [name, value] of Object.entries(filled)) {
    if (typeof value !== 'number' || !(value > 0)) {
      throw new RangeError(`awarenessLimits.${name} must be a positive number, got ${value}`)
    }
  }
  return filled
}

/** The bounds and rules of a room's awareness. */
export interface AwarenessOptions extends AwarenessLimits, AwarenessStateLimits {
  /** Read-only connections' states are neither applied nor shown to anyone. */
  readonly hideReadOnly: boolean
}

/** What a room's awareness asks of its room. */
export interface AwarenessHandlers {
  /** Sends `message` (an awareness update) to every connection of the room but `except`. */
  broadcast(update: Uint8Array, except: unknown): void
  /** Sends an awareness update of this instance's connections to the other instances. */
  publish(update: Uint8Array): void
  /** `peer` showed these states (applied, or for a hidden peer not): keep their sessions. */
  showed(peer: Peer, states: readonly ShownState[]): void
  /** `peer` tried to change a state that belongs to another connection; it was refused. */
  refused(peer: Peer, client: number): void
  /** Another instance tried to change a state that belongs to a connection here. */
  refusedRelayed(client: number): void
}

/** A client's state as a connection showed it. */
export interface ShownState {
  readonly client: number
  readonly state: Readonly<Record<string, unknown>>
}

/** The origin y-protocols gives the removal of states that were not renewed. */
const TIMEOUT = 'timeout'

/** Who set a state: a connection here, or another instance (by its id). */
type Owner = Peer | { readonly instance: string }

/** What one connection speaks for. */
interface Presence {
  /** Clients whose states it set first. */
  readonly owned: Set<number>
  /** Clients of the same party whose states it relayed. */
  readonly relayed: Set<number>
}

/** How long the clock of a removed state is remembered, so a late echo cannot revive it. */
const REMEMBER_REMOVED_MS = 60_000

/** Most removed states remembered at once; the oldest are forgotten first beyond it. */
const MAX_REMEMBERED_REMOVED = 10_000

/**
 * One room's awareness, with its checks and owners.
 *
 * @example
 * const awareness = new RoomAwareness(doc, handlers, options)
 * awareness.receive(peer, update) // throws an AwarenessRefusal for a bad update
 */
export class RoomAwareness {
  /** The states, as y-protocols holds them; the server has none of its own. */
  readonly awareness: awarenessProtocol.Awareness
  private readonly owners = new Map<number, Owner>()
  private readonly presences = new Map<Peer, Presence>()
  private readonly stateBytes = new Map<number, number>()
  /** Clients whose states were removed, with when, oldest first. */
  private readonly removedAt = new Map<number, number>()

  constructor(
    doc: Y.Doc,
    private readonly handlers: AwarenessHandlers,
    private readonly options: AwarenessOptions,
  ) {
    this.awareness = new awarenessProtocol.Awareness(doc)
    this.awareness.setLocalState(null)
    this.awareness.on('update', (changes: AwarenessChanges, origin: unknown) =>
      this.changed(changes, origin),
    )
  }

  /** Adds a connection that may set states. */
  join(peer: Peer): void {
    this.presences.set(peer, { owned: new Set(), relayed: new Set() })
  }

  /**
   * Applies `peer`'s awareness update, less the changes it may not make. Throws an
   * `AwarenessRefusal` (applying nothing) for an update that does not decode, breaks a bound,
   * or would make the connection hold too many clients or bytes.
   */
  receive(peer: Peer, update: Uint8Array): void {
    const presence = this.presences.get(peer)
    if (presence === undefined) return
    const entries = readAwarenessUpdate(update, this.options)
    if (peer.role === 'read' && this.options.hideReadOnly) {
      this.handlers.showed(
        peer,
        entries.flatMap(({ client, state }) => (state === null ? [] : [{ client, state }])),
      )
      return
    }
    const accepted: AwarenessEntry[] = []
    const claims: number[] = []
    const relays: number[] = []
    for (const entry of entries) {
      if (!this.changes(entry)) continue
      const owner = this.owners.get(entry.client)
      if (owner === undefined) {
        if (entry.state !== null) claims.push(entry.client)
      } else if (owner === peer) {
        // Its own.
      } else if (!('instance' in owner) && sameParty(owner, peer)) {
        relays.push(entry.client)
      } else {
        // Another party's state. Refusing a removal is not reported: stock clients echo the
        // removals of states they timed out. Nor is a state another instance holds: after an
        // instance dies, its clients reconnect here before their old states time out.
        if (entry.state !== null && !('instance' in owner))
          this.handlers.refused(peer, entry.client)
        continue
      }
      accepted.push(entry)
    }
    this.checkBounds(presence, accepted, claims, relays)
    for (const client of claims) {
      this.owners.set(client, peer)
      presence.owned.add(client)
    }
    for (const client of relays) presence.relayed.add(client)
    for (const entry of accepted) {
      if (entry.state !== null) this.stateBytes.set(entry.client, entry.bytes)
    }
    if (accepted.length > 0) {
      const applied = accepted.length === entries.length ? update : encodeAwarenessEntries(accepted)
      awarenessProtocol.applyAwarenessUpdate(this.awareness, applied, peer)
    }
  }

  /**
   * Applies an awareness update the instance `instance` published, less its changes to states
   * that belong to a connection here. An update that does not decode is ignored.
   */
  receiveRelayed(instance: string, update: Uint8Array, origin: unknown): void {
    let entries: AwarenessEntry[]
    try {
      entries = readAwarenessUpdate(update, { ...this.options, maxClients: Infinity })
    } catch {
      return
    }
    const accepted: AwarenessEntry[] = []
    for (const entry of entries) {
      if (!this.changes(entry)) continue
      const owner = this.owners.get(entry.client)
      if (owner !== undefined && !('instance' in owner)) {
        if (entry.state !== null) this.handlers.refusedRelayed(entry.client)
        continue
      }
      // A state another instance held moves with its client: every instance checks its own
      // connections' claims, so one relaying a client's state has that client connected.
      if (entry.state !== null) {
        this.owners.set(entry.client, { instance })
        this.stateBytes.set(entry.client, entry.bytes)
      }
      accepted.push(entry)
    }
    if (accepted.length === 0) return
    const applied = accepted.length === entries.length ? update : encodeAwarenessEntries(accepted)
    awarenessProtocol.applyAwarenessUpdate(this.awareness, applied, origin)
  }

  /**
   * Removes a connection and, at once, the states it set, unless another connection of the
   * same party relays them (a tab that reconnected, or another tab of its browser): that one
   * speaks for them from now on.
   */
  leave(peer: Peer): void {
    const presence = this.presences.get(peer)
    if (presence === undefined) return
    this.presences.delete(peer)
    const orphans: number[] = []
    for (const client of presence.owned) {
      const heir = [...this.presences].find(([, other]) => other.relayed.has(client))
      if (heir === undefined) {
        orphans.push(client)
        continue
      }
      const [next, nextPresence] = heir
      this.owners.set(client, next)
      nextPresence.relayed.delete(client)
      nextPresence.owned.add(client)
    }
    for (const client of orphans) this.owners.delete(client)
    if (orphans.length > 0) awarenessProtocol.removeAwarenessStates(this.awareness, orphans, null)
  }

  /** An awareness update of every state in the room. */
  encodeAll(): Uint8Array {
    return awarenessProtocol.encodeAwarenessUpdate(this.awareness, [
      ...this.awareness.getStates().keys(),
    ])
  }

  /** An awareness update of the states this instance's connections set, or null if none. */
  encodeLocal(): Uint8Array | null {
    const states = this.awareness.getStates()
    const clients = [...this.owners]
      .filter(([client, owner]) => !('instance' in owner) && states.has(client))
      .map(([client]) => client)
    return clients.length === 0
      ? null
      : awarenessProtocol.encodeAwarenessUpdate(this.awareness, clients)
  }

  /** Whether a state is shown for `client`. */
  has(client: number): boolean {
    return this.awareness.getStates().has(client)
  }

  /** Stops the timeout checks; the awareness is unusable afterwards. */
  destroy(): void {
    this.awareness.destroy()
  }

  /** Whether applying `entry` would change anything (y-protocols' own rule). */
  private changes(entry: AwarenessEntry): boolean {
    const clock = this.awareness.meta.get(entry.client)?.clock ?? 0
    return (
      clock < entry.clock ||
      (clock === entry.clock && entry.state === null && this.has(entry.client))
    )
  }

  /** Throws unless `presence`, with `claims` and `relays` added, stays within the bounds. */
  private checkBounds(
    presence: Presence,
    accepted: readonly AwarenessEntry[],
    claims: readonly number[],
    relays: readonly number[],
  ): void {
    const clients = new Set([...presence.owned, ...presence.relayed, ...claims, ...relays])
    if (clients.size > this.options.maxClients) {
      throw new AwarenessRefusal('policy', 'too many awareness clients on one connection')
    }
    const bytes = new Map<number, number>()
    for (const client of presence.owned) bytes.set(client, this.stateBytes.get(client) ?? 0)
    for (const { client, state, bytes: size } of accepted) {
      if (presence.owned.has(client) || claims.includes(client)) {
        bytes.set(client, state === null ? 0 : size)
      }
    }
    let total = 0
    for (const size of bytes.values()) total += size
    if (total > this.options.maxBytesPerConnection) {
      throw new AwarenessRefusal(
        'policy',
        `awareness states of one connection too large: ${total} bytes (limit ${this.options.maxBytesPerConnection})`,
      )
    }
  }

  private changed({ added, updated, removed }: AwarenessChanges, origin: unknown): void {
    const now = Date.now()
    for (const client of removed) this.forget(client, now)
    for (const client of added) this.removedAt.delete(client)
    for (const client of updated) this.removedAt.delete(client)
    this.broadcastAndPublish([...added, ...updated, ...removed], origin)
    const peer = origin as Peer
    if (this.presences.has(peer)) {
      const states = this.awareness.getStates()
      this.handlers.showed(
        peer,
        [...added, ...updated].flatMap((client) => {
          const state = states.get(client)
          return state === undefined ? [] : [{ client, state }]
        }),
      )
    }
    this.forgetOldRemovals(now)
  }

  private broadcastAndPublish(clients: number[], origin: unknown): void {
    const update = awarenessProtocol.encodeAwarenessUpdate(this.awareness, clients)
    this.handlers.broadcast(update, origin)
    // Other instances time out stale states themselves; relayed states are their senders' to publish.
    if (origin === TIMEOUT || !(origin === null || this.presences.has(origin as Peer))) return
    this.handlers.publish(update)
  }

  /** `client`'s state was removed: it belongs to nobody now. */
  private forget(client: number, now: number): void {
    const owner = this.owners.get(client)
    this.owners.delete(client)
    this.stateBytes.delete(client)
    if (owner !== undefined && !('instance' in owner)) {
      this.presences.get(owner)?.owned.delete(client)
    }
    for (const presence of this.presences.values()) presence.relayed.delete(client)
    this.removedAt.delete(client)
    this.removedAt.set(client, now)
  }

  /**
   * y-protocols remembers the clock of every client ever seen, so that a late echo of a
   * removed state cannot bring it back. Remembered for a minute, that is enough; for ever,
   * clients cycling through ids would grow the room without bound.
   */
  private forgetOldRemovals(now: number): void {
    for (const [client, at] of this.removedAt) {
      if (now - at < REMEMBER_REMOVED_MS && this.removedAt.size <= MAX_REMEMBERED_REMOVED) break
      this.removedAt.delete(client)
      if (!this.has(client)) this.awareness.meta.delete(client)
    }
  }
}

/**
 * Whether `a` and `b` speak for the same party: the same authenticated user, or, when neither
 * is authenticated, the same client address.
 */
const sameParty = (a: Peer, b: Peer): boolean =>
  a.user !== undefined || b.user !== undefined
    ? a.user === b.user
    : a.address !== undefined && a.address === b.address

interface AwarenessChanges {
  readonly added: number[]
  readonly updated: number[]
  readonly removed: number[]
}
