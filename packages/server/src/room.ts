/**
 * A room: one document in memory, its awareness, and the connections on it.
 *
 * Durability first: an update a client sends is applied to the room's document, appended to
 * the store, and relayed to the other connections only once the store has it. A client
 * asking for the document (sync step 1) is answered only after every pending append, so no
 * client ever receives content the store could still lose.
 *
 * With a relay (several server processes sharing rooms), the room listens to its channel
 * before it loads, publishes each update once stored, and applies what other instances publish
 * (they stored it in the shared store) without storing it again. Awareness goes both ways.
 */
import * as decoding from 'lib0/decoding'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'
import {
  awarenessMessage,
  MessageType,
  permissionDeniedMessage,
  sessionMessage,
  syncStep1Message,
  syncStep2Message,
  updateMessage,
} from './protocol.js'
import { type Relay, RelayKind, type RelayListener, type RelaySubscription } from './scale/relay.js'
import { claimedUser, RoomSessions, sessionFromState, usableUser } from './sessions.js'
import type { DocumentStore, LogSize, StoredDocument } from './storage/document-store.js'

/** What a connection may do in a room. */
export type Role = 'read' | 'write'

/** A connection as a room sees it. */
export interface Peer {
  /** `read` peers receive updates but cannot change the document. */
  readonly role: Role
  /** The authenticated user, if any: their sessions are kept under this id. */
  readonly user?: string | undefined
  /** The awareness clients this connection speaks for, removed when it leaves. */
  readonly awarenessClients: Set<number>
  /** Sends one binary message. */
  send(message: Uint8Array): void
  /** Closes the connection with a WebSocket close code and reason. */
  close(code: number, reason: string): void
}

/** Close codes a room uses. */
export const CloseCode = {
  /** The room's storage failed; reconnecting resends what the store may have missed. */
  storageFailed: 1011,
  /** A message that does not decode. */
  malformed: 1007,
  /** A message against the server's rules (too much awareness, too fast). */
  policy: 1008,
} as const

/**
 * The awareness clients one connection may speak for: itself and the tabs of its browser that
 * relay through it. More would let one connection fill the room's memory and every peer's.
 */
export const MAX_AWARENESS_CLIENTS_PER_CONNECTION = 64

/**
 * How long a freshly loaded room waits before compacting a long log: compacting reads and
 * applies the whole log again, on the server's one thread, and the clients that asked for the
 * room should have their answers first.
 */
const COMPACT_AFTER_LOAD_MS = 1_000

/** What a room reports to the server around it (logs, metrics). */
export interface RoomEvents {
  /** The store took `bytes` of updates in one write that took `milliseconds`. */
  stored?(room: string, bytes: number, milliseconds: number): void
  /** The room's log was compacted; `size` is what it holds now. */
  compacted?(room: string, size: LogSize): void
  /**
   * The store failed: an append (the room then closes its connections, which send their
   * updates again when they reconnect) or a background compaction (the log stays as it was).
   */
  storageFailed?(room: string, error: unknown): void
  /** `peer` (read-only) sent an update that would change the document; it was refused. */
  refusedWrite?(room: string, peer: Peer): void
  /** A sync step 2 or update message of `bytes` (its update) arrived, from any peer. */
  receivedUpdate?(room: string, bytes: number): void
  /** A user's session could not be saved; the document is not affected. */
  sessionStorageFailed?(room: string, error: unknown): void
  /**
   * A session `peer`'s awareness showed was not kept: that connection went over its session
   * write rate (see `RoomSessions`). `first` is true for its first such drop.
   */
  sessionWritesDropped?(room: string, peer: Peer, first: boolean): void
  /** A relayed message that could not be applied, or a catch-up from the store that failed. */
  relayFailed?(room: string, error: unknown): void
}

/** Options of `Room.load`. */
export interface RoomOptions {
  /** Compact the log in the background once it holds this many updates. */
  readonly compactAfterUpdates?: number
  /** Called as the room stores, compacts, refuses or fails, for logs and metrics. */
  readonly events?: RoomEvents
  /** Shares the room with other server instances over a shared store. */
  readonly relay?: Relay
}

/** Who caused a change that must not be stored again: the updates read from the store. */
const FROM_STORE = Symbol('from store')

/** Who caused a change another instance made: already stored there, relayed here locally. */
const FROM_RELAY = Symbol('from another instance')

/** The origin y-protocols gives the removal of awareness states that were not renewed. */
const TIMEOUT = 'timeout'

const READ_ONLY_REASON = 'read-only: this connection may not edit the document'

/**
 * One document and its peers.
 *
 * @example const room = await Room.load('notes', store); room.join(peer); room.receive(peer, data)
 */
export class Room {
  /** The room's document. */
  readonly doc = new Y.Doc()
  /** The awareness states of the peers in the room; the server has none of its own. */
  readonly awareness = new awarenessProtocol.Awareness(this.doc)
  private readonly peers = new Set<Peer>()
  /** Appends in flight, in order; a sync reply waits for them. */
  private writes: Promise<void> = Promise.resolve()
  /** Updates received and not yet handed to the store, in order, with their senders. */
  private unstored: { update: Uint8Array; origin: unknown; received: number }[] = []
  private readonly sessions: RoomSessions
  private compacting = false
  private closed = false
  /** The store refused an append: nothing more is stored or relayed. */
  private failed = false
  /** Listening to the room's relay channel; null without a relay and once closed. */
  private subscription: RelaySubscription | null = null
  /** What the relay said while the room loaded, to handle once it has; null afterwards. */
  private early: (() => void)[] | null = []
  /** A catch-up from the store in progress, and whether another is wanted after it. */
  private reloading = false
  private reloadAgain = false
  /** The room as its relay channel sees it: messages wait until the room has loaded. */
  private readonly listener: RelayListener = {
    receive: (kind, data) => this.whenLoaded(() => this.receiveRelayed(kind, data)),
    reconnected: () => this.whenLoaded(() => this.catchUp()),
  }

  private constructor(
    /** The room name, the URL path of its connections. */
    readonly name: string,
    private readonly store: DocumentStore,
    private readonly options: RoomOptions,
  ) {
    // The server speaks for no one: it has no awareness state of its own.
    this.awareness.setLocalState(null)
    this.sessions = new RoomSessions(name, store, {
      sessionStorageFailed: (room, error) => options.events?.sessionStorageFailed?.(room, error),
      sessionWritesDropped: (room, by, first) =>
        options.events?.sessionWritesDropped?.(room, by as Peer, first),
    })
  }

  /**
   * Loads the room's document from `store` in full before anyone can join. With a relay, it
   * listens to the room's channel first, so nothing stored and published meanwhile is missed.
   */
  static async load(name: string, store: DocumentStore, options: RoomOptions = {}): Promise<Room> {
    const room = new Room(name, store, options)
    if (options.relay) room.subscription = await options.relay.subscribe(name, room.listener)
    let stored: StoredDocument
    try {
      stored = await store.load(name)
    } catch (error) {
      room.unsubscribe()
      throw error
    }
    Y.transact(
      room.doc,
      () => {
        for (const update of stored.updates) Y.applyUpdate(room.doc, update, FROM_STORE)
      },
      FROM_STORE,
    )
    room.doc.on('update', (update: Uint8Array, origin: unknown) =>
      room.storeAndRelay(update, origin),
    )
    room.awareness.on('update', (changes: AwarenessChanges, origin: unknown) =>
      room.relayAwareness(changes, origin),
    )
    // Not at once: the clients waiting for the room get their answers first.
    room.scheduleCompaction(stored.size, COMPACT_AFTER_LOAD_MS)
    const early = room.early ?? []
    room.early = null
    for (const handle of early) handle()
    room.publish(RelayKind.queryAwareness, new Uint8Array(0))
    return room
  }

  /** How many connections are in the room. */
  get size(): number {
    return this.peers.size
  }

  /** Adds a connection: sends it sync step 1 and everyone's awareness. */
  join(peer: Peer): void {
    this.assertOpen()
    this.peers.add(peer)
    peer.send(syncStep1Message(this.doc))
    const clients = [...this.awareness.getStates().keys()]
    if (clients.length > 0) peer.send(awarenessMessage(this.awareness, clients))
  }

  /** Removes a connection and, at once, the awareness states it spoke for; saves its session. */
  leave(peer: Peer): void {
    if (!this.peers.delete(peer)) return
    void this.sessions.flush()
    if (peer.awarenessClients.size > 0) {
      awarenessProtocol.removeAwarenessStates(this.awareness, [...peer.awarenessClients], null)
    }
  }

  /**
   * Handles one message from `peer`. Throws on a message that does not decode (the caller
   * closes that connection); unknown message types are ignored.
   */
  receive(peer: Peer, data: Uint8Array): void {
    if (this.closed) return
    const decoder = decoding.createDecoder(data)
    const type = decoding.readVarUint(decoder)
    switch (type) {
      case MessageType.sync:
        this.receiveSync(peer, decoder)
        return
      case MessageType.awareness:
        this.receiveAwareness(peer, decoding.readVarUint8Array(decoder))
        return
      case MessageType.queryAwareness:
        peer.send(awarenessMessage(this.awareness, [...this.awareness.getStates().keys()]))
        return
      case MessageType.session:
        this.answerSession(peer, decoding.readVarString(decoder))
        return
      default:
        // Auth messages from clients and unknown types carry nothing for the server.
        return
    }
  }

  /** Resolves once every update received so far is in the store. */
  flushed(): Promise<void> {
    return this.writes
  }

  /** Waits for pending appends, then frees the document. The room is unusable afterwards. */
  async close(): Promise<void> {
    this.closed = true
    await this.writes
    await this.sessions.close()
    this.unsubscribe()
    this.awareness.destroy()
    this.doc.destroy()
  }

  private receiveSync(peer: Peer, decoder: decoding.Decoder): void {
    const kind = decoding.readVarUint(decoder)
    if (kind === syncProtocol.messageYjsSyncStep1) {
      const stateVector = decoding.readVarUint8Array(decoder)
      // Decoded now, so that a malformed one is this message's error (the caller closes the
      // connection) rather than a failure later, outside any connection's handler.
      Y.decodeStateVector(stateVector)
      // Answer with stored content only.
      void this.writes
        .then(() => {
          if (!this.closed && this.peers.has(peer)) {
            peer.send(syncStep2Message(this.doc, stateVector))
          }
        })
        .catch(() => peer.close(CloseCode.malformed, 'malformed message'))
      return
    }
    if (kind !== syncProtocol.messageYjsSyncStep2 && kind !== syncProtocol.messageYjsUpdate) {
      throw new RangeError(`unknown sync message kind ${kind}`)
    }
    const update = decoding.readVarUint8Array(decoder)
    this.options.events?.receivedUpdate?.(this.name, update.length)
    if (peer.role === 'read') this.refuseWrite(peer, update)
    else Y.applyUpdate(this.doc, update, peer)
  }

  /** Applies `peer`'s awareness update, unless it would speak for too many clients. */
  private receiveAwareness(peer: Peer, update: Uint8Array): void {
    const clients = decoding.readVarUint(decoding.createDecoder(update))
    if (clients > MAX_AWARENESS_CLIENTS_PER_CONNECTION) {
      peer.close(CloseCode.policy, 'too many awareness clients on one connection')
      return
    }
    awarenessProtocol.applyAwarenessUpdate(this.awareness, update, peer)
    if (peer.awarenessClients.size > MAX_AWARENESS_CLIENTS_PER_CONNECTION) {
      // Leaving removes every state it spoke for.
      peer.close(CloseCode.policy, 'too many awareness clients on one connection')
      this.leave(peer)
    }
  }

  /** Sends `peer` its user's last session (an empty one when it has no user or none is kept). */
  private answerSession(peer: Peer, claimed: string): void {
    const user = peer.user ?? usableUser(claimed)
    if (user === null) {
      peer.send(sessionMessage('', null))
      return
    }
    this.sessions
      .lookup(user)
      .catch((error: unknown) => {
        this.options.events?.sessionStorageFailed?.(this.name, error)
        return null
      })
      .then((session) => {
        if (!this.closed && this.peers.has(peer)) peer.send(sessionMessage(user, session))
      })
  }

  /**
   * Keeps the session each of `clients`' states shows, under its connection's user; not a
   * state naming another user than the connection's (a tab relaying another user's tab over
   * BroadcastChannel).
   */
  private recordSessions(peer: Peer, clients: readonly number[]): void {
    const states = this.awareness.getStates()
    for (const client of clients) {
      const state = states.get(client)
      if (state === undefined) continue
      const claimed = claimedUser(state)
      if (peer.user !== undefined && claimed !== null && claimed !== peer.user) continue
      const user = peer.user ?? claimed
      const session = user === null ? null : sessionFromState(state)
      if (user !== null && session !== null) this.sessions.record(user, session, peer)
    }
  }

  /** A read-only peer sent an update: tell it no, unless the update holds nothing new. */
  private refuseWrite(peer: Peer, update: Uint8Array): void {
    // Its answer to sync step 1 holds at least its delete set: harmless when nothing is new.
    if (Y.snapshotContainsUpdate(Y.snapshot(this.doc), update)) return
    this.options.events?.refusedWrite?.(this.name, peer)
    peer.send(permissionDeniedMessage(READ_ONLY_REASON))
  }

  private storeAndRelay(update: Uint8Array, origin: unknown): void {
    if (origin === FROM_STORE) return
    if (origin === FROM_RELAY) {
      // Another instance stored it before publishing it.
      this.broadcast(updateMessage(update), null)
      return
    }
    this.unstored.push({ update, origin, received: performance.now() })
    if (this.unstored.length === 1) this.writes = this.writes.then(() => this.storeUnstored())
  }

  /**
   * Stores every update received since the last write, merged into one per sender, and once
   * the store has them relays each to the other connections (and instances). Under load a
   * write gathers what arrived while the previous one was on its way to disk.
   */
  private async storeUnstored(): Promise<void> {
    const batch = this.unstored
    this.unstored = []
    // A closing room still stores what it received; one whose storage failed stores nothing.
    if (this.failed || batch.length === 0) return
    const bySender = new Map<unknown, Uint8Array[]>()
    for (const { update, origin } of batch) {
      const updates = bySender.get(origin)
      if (updates) updates.push(update)
      else bySender.set(origin, [update])
    }
    const merged = [...bySender].map(([origin, updates]) => ({
      origin,
      update: updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates),
    }))
    try {
      const sizes = await Promise.all(
        merged.map(({ update }) => this.store.append(this.name, update)),
      )
      const now = performance.now()
      for (const { update, received } of batch) {
        this.options.events?.stored?.(this.name, update.length, now - received)
      }
      for (const { update, origin } of merged) {
        this.broadcast(updateMessage(update), origin)
        this.publish(RelayKind.update, update)
      }
      const largest = sizes.reduce((a, b) => (b.updates > a.updates ? b : a))
      if (!this.closed) this.scheduleCompaction(largest)
    } catch (error) {
      this.failStorage(error)
    }
  }

  /**
   * The store refused an update the document already holds: drop every connection, so that
   * the document is reloaded from the store and the clients, who still have the update,
   * send it again when they reconnect.
   */
  private failStorage(error: unknown): void {
    this.options.events?.storageFailed?.(this.name, error)
    this.failed = true
    this.closed = true
    this.unsubscribe()
    for (const peer of [...this.peers]) peer.close(CloseCode.storageFailed, 'storage failed')
    this.peers.clear()
  }

  private relayAwareness(changes: AwarenessChanges, origin: unknown): void {
    const changed = [...changes.added, ...changes.updated, ...changes.removed]
    if (this.peers.has(origin as Peer)) {
      const peer = origin as Peer
      for (const client of [...changes.added, ...changes.updated]) peer.awarenessClients.add(client)
      for (const client of changes.removed) peer.awarenessClients.delete(client)
      this.recordSessions(peer, [...changes.added, ...changes.updated])
    }
    this.broadcast(awarenessMessage(this.awareness, changed), origin)
    // Other instances time out stale states themselves; their own states are theirs to publish.
    if (origin !== FROM_RELAY && origin !== TIMEOUT) {
      this.publish(
        RelayKind.awareness,
        awarenessProtocol.encodeAwarenessUpdate(this.awareness, changed),
      )
    }
  }

  private whenLoaded(handle: () => void): void {
    if (this.early !== null) this.early.push(handle)
    else if (!this.closed) handle()
  }

  private receiveRelayed(kind: RelayKind, data: Uint8Array): void {
    try {
      switch (kind) {
        case RelayKind.update:
          Y.applyUpdate(this.doc, data, FROM_RELAY)
          return
        case RelayKind.awareness:
          awarenessProtocol.applyAwarenessUpdate(this.awareness, data, FROM_RELAY)
          return
        case RelayKind.queryAwareness:
          this.publishLocalAwareness()
          return
        case RelayKind.reload:
          this.reloadFromStore()
          return
      }
    } catch (error) {
      this.options.events?.relayFailed?.(this.name, error)
    }
  }

  /**
   * The relay is back after an outage: what others published meanwhile may be lost, and so
   * may what this instance published. Everything is in the store, so every instance reloads;
   * awareness is exchanged again.
   */
  private catchUp(): void {
    this.publish(RelayKind.reload, new Uint8Array(0))
    this.publishLocalAwareness()
    this.publish(RelayKind.queryAwareness, new Uint8Array(0))
    this.reloadFromStore()
  }

  /** Applies the stored log again: what the document lacks reaches the local peers. */
  private reloadFromStore(): void {
    if (this.reloading) {
      this.reloadAgain = true
      return
    }
    this.reloading = true
    void (async () => {
      do {
        this.reloadAgain = false
        try {
          const stored = await this.store.load(this.name)
          if (this.closed) break
          Y.transact(
            this.doc,
            () => {
              for (const update of stored.updates) Y.applyUpdate(this.doc, update, FROM_RELAY)
            },
            FROM_RELAY,
          )
        } catch (error) {
          this.options.events?.relayFailed?.(this.name, error)
        }
      } while (this.reloadAgain && !this.closed)
      this.reloading = false
    })()
  }

  /** Publishes the awareness states of this instance's connections. */
  private publishLocalAwareness(): void {
    const states = this.awareness.getStates()
    const clients = [...this.peers].flatMap((peer) =>
      [...peer.awarenessClients].filter((client) => states.has(client)),
    )
    if (clients.length === 0) return
    this.publish(
      RelayKind.awareness,
      awarenessProtocol.encodeAwarenessUpdate(this.awareness, clients),
    )
  }

  private publish(kind: RelayKind, data: Uint8Array): void {
    if (this.subscription !== null) this.options.relay?.publish(this.name, kind, data)
  }

  private unsubscribe(): void {
    this.subscription?.unsubscribe()
    this.subscription = null
  }

  private broadcast(message: Uint8Array, except: unknown): void {
    for (const peer of this.peers) if (peer !== except) peer.send(message)
  }

  private scheduleCompaction(size: LogSize, delayMs = 0): void {
    const limit = this.options.compactAfterUpdates ?? 500
    if (this.compacting || size.updates <= limit) return
    this.compacting = true
    const timer = setTimeout(() => {
      if (this.closed) {
        this.compacting = false
        return
      }
      this.store
        .compact(this.name)
        .then((after) => this.options.events?.compacted?.(this.name, after))
        .catch((error: unknown) => this.options.events?.storageFailed?.(this.name, error))
        .finally(() => {
          this.compacting = false
        })
    }, delayMs)
    timer.unref()
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`the room ${this.name} is closed`)
  }
}

interface AwarenessChanges {
  readonly added: number[]
  readonly updated: number[]
  readonly removed: number[]
}
