/**
 * A room: one document in memory, its awareness, and the connections on it.
 *
 * The room's document holds only what the store holds. An update a client sends is checked,
 * queued and appended to the store (see append-queue.ts); only once the store has it is it
 * applied to the document and relayed to the other connections and instances. So whatever a
 * client receives, whether relayed or in the answer to its sync request, is stored, and a
 * crash (even `kill -9`) never loses what another client has seen. Answers leave out the
 * updates Yjs holds pending (see yjs-store.ts). A connection that asks is told what the store
 * holds once its updates are stored (see saved-acks.ts).
 *
 * With a relay (several server processes sharing rooms), the room listens to its channel
 * before it loads, publishes each update once stored, and applies what other instances publish
 * (they stored it in the shared store) without storing it again. Awareness goes both ways.
 */
import {
  AwarenessRefusal,
  MessageType,
  permissionDeniedMessage,
  READ_ONLY_REASON,
  readSessionRequest,
  readUndoHistoryMessage,
  readUserId,
  sessionAnswer,
  sessionFromState,
  UndoHistoryKind,
  type UndoHistoryLimits,
  type UndoHistoryMessage,
  undoHistoryAnswer,
  usableUserId,
} from '@tandem/protocol'
import * as decoding from 'lib0/decoding'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'
import { AppendQueue, type StoredUpdate } from './append-queue.js'
import { ChangeCopy } from './change-copy.js'
import { ANONYMOUS_AUTHOR, RoomAttribution } from './history/room-attribution.js'
import { type RestoredVersion, RoomVersions, type VersionOptions } from './history/room-versions.js'
import { type AuthorRun, authorsOfText } from './history/text-authors.js'
import type { Peer } from './peer.js'
import {
  awarenessUpdateMessage,
  syncStep1Message,
  syncStep2Message,
  updateMessage,
} from './protocol.js'
import {
  type AwarenessOptions,
  type AwarenessStateLimits,
  awarenessLimitsWithDefaults,
  RoomAwareness,
  type ShownState,
} from './room-awareness.js'
import { SavedAcks } from './saved-acks.js'
import { type Relay, RelayKind, type RelayListener, type RelaySubscription } from './scale/relay.js'
import { RoomSessions } from './sessions.js'
import {
  checkAuthor,
  type DocumentStore,
  type LogSize,
  type StoredDocument,
  type UpdateAuthor,
} from './storage/document-store.js'
import { RoomUndoHistories } from './undo-histories.js'
import { holdsUpdate, pendingBytes } from './yjs-store.js'

export type { Peer, ReplyKind, Role } from './peer.js'

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
  /**
   * A read-only `peer` sent an update; `refused` when it would have changed the document
   * (it was refused and the peer told so), false when the document already held it.
   */
  readOnlyUpdate?(room: string, peer: Peer, refused: boolean): void
  /** A sync step 2 or update message of `bytes` (its update) arrived, from any peer. */
  receivedUpdate?(room: string, bytes: number): void
  /** A user's session could not be saved; the document is not affected. */
  sessionStorageFailed?(room: string, error: unknown): void
  /**
   * A session `peer`'s awareness showed was not kept: that connection went over its session
   * write rate (see `RoomSessions`). `first` is true for its first such drop.
   */
  sessionWritesDropped?(room: string, peer: Peer, first: boolean): void
  /** A user's undo history could not be read or written; the document is not affected. */
  undoHistoryStorageFailed?(room: string, error: unknown): void
  /** A user's undo history was over the caps: its `dropped` oldest steps were not kept. */
  undoHistoryTrimmed?(room: string, dropped: number): void
  /** A relayed message that could not be applied, or a catch-up from the store that failed. */
  relayFailed?(room: string, error: unknown): void
  /** `peer` sent an awareness update that breaks a rule; it was closed with `reason`. */
  awarenessRefused?(room: string, peer: Peer, reason: string): void
  /** `peer` tried to change the awareness state of a client another connection speaks for. */
  awarenessClaimRefused?(room: string, peer: Peer, client: number): void
  /** Another instance tried to change the state of a client a connection here speaks for. */
  relayedClaimRefused?(room: string, client: number): void
  /** A stored update that Yjs could not apply (from a client, or read back from the store). */
  applyFailed?(room: string, error: unknown): void
  /** A listener or the relay threw while the room handed on a stored update; the room goes on. */
  listenerFailed?(room: string, error: unknown): void
  /** An automatic version could not be made or thinned; the document is not affected. */
  versionFailed?(room: string, error: unknown): void
}

/** Options of `Room.load`. */
export interface RoomOptions {
  /** Compact the log in the background once it holds this many updates. */
  readonly compactAfterUpdates?: number
  /** Called as the room stores, compacts, refuses or fails, for logs and metrics. */
  readonly events?: RoomEvents
  /** Shares the room with other server instances over a shared store. */
  readonly relay?: Relay
  /** Bounds on awareness states (see `DEFAULT_AWARENESS_LIMITS`). */
  readonly awarenessLimits?: Partial<AwarenessStateLimits>
  /** Read-only connections' awareness is neither applied nor shown (default false). */
  readonly hideReadOnlyPresence?: boolean
  /**
   * Bytes of updates that may wait for the store (default 64 MiB); past it the store counts
   * as failed, as when an append fails.
   */
  readonly maxUnstoredBytes?: number
  /** When the room makes versions by itself and how long it keeps them (see `VersionOptions`). */
  readonly versions?: VersionOptions
  /** The name of the document's text, for attribution and versions (default `"text"`). */
  readonly textName?: string
  /** Caps on each user's undo history (see `DEFAULT_UNDO_HISTORY_LIMITS` of `@tandem/protocol`). */
  readonly undoHistoryLimits?: Partial<UndoHistoryLimits>
}

/**
 * The origin of a change a program made on the server (a restore, an API call): stored and
 * attributed like a connection's update, to `user` (and to who accepted it, for a proposal).
 */
class ServerChange {
  constructor(
    readonly user: string,
    readonly acceptedBy: string | undefined,
  ) {}
}

/** How `Room.change` attributes a change beyond its user. */
export interface ChangeOptions {
  /** Who accepted it, when it applies a program's proposal a person accepted. */
  readonly acceptedBy?: string
}

/** Who caused a change that must not be stored again: the updates read from the store. */
const FROM_STORE = Symbol('from store')

/** Who caused a change another instance made: already stored there, relayed here locally. */
const FROM_RELAY = Symbol('from another instance')

/**
 * One document and its peers.
 *
 * @example const room = await Room.load('notes', store); room.join(peer); room.receive(peer, data)
 */
export class Room {
  /** The room's document: what the store holds, no more. */
  readonly doc = new Y.Doc()
  /** Where server-made changes are made before they are stored (see `change`). */
  private readonly changeCopy = new ChangeCopy(this.doc)
  private readonly presence: RoomAwareness
  private readonly peers = new Set<Peer>()
  private readonly appends: AppendQueue
  private readonly sessions: RoomSessions
  /** Tells the connections that asked what the store holds, once it holds their updates. */
  private readonly acks = new SavedAcks(this.doc)
  private readonly undoHistories: RoomUndoHistories
  private compacting = false
  private closed = false
  /**
   * Who wrote what, loaded when first asked and followed as updates are stored.
   *
   * @internal
   */
  readonly attribution: RoomAttribution
  /**
   * The room's versions: made after pauses and at intervals, saved, compared and restored.
   *
   * @internal
   */
  readonly versions: RoomVersions
  /** The name of the document's text. */
  readonly textName: string
  /** The user id each unauthenticated connection's awareness last claimed. */
  private readonly claimedUsers = new WeakMap<Peer, string>()
  /** Listening to the room's relay channel; null without a relay and once closed. */
  private subscription: RelaySubscription | null = null
  /** What the relay said while the room loaded, to handle once it has; null afterwards. */
  private early: (() => void)[] | null = []
  /** A catch-up from the store in progress, and whether another is wanted after it. */
  private reloading = false
  private reloadAgain = false
  /** The room as its relay channel sees it: messages wait until the room has loaded. */
  private readonly listener: RelayListener = {
    receive: (kind, data, from) => this.whenLoaded(() => this.receiveRelayed(kind, data, from)),
    reconnected: () => this.whenLoaded(() => this.catchUp()),
  }

  private constructor(
    /** The room name, the URL path of its connections. */
    readonly name: string,
    private readonly store: DocumentStore,
    private readonly options: RoomOptions,
  ) {
    const events = options.events ?? {}
    this.attribution = new RoomAttribution(name, store)
    this.textName = options.textName ?? 'text'
    this.versions = new RoomVersions(
      {
        name,
        doc: this.doc,
        textName: this.textName,
        store,
        attribution: this.attribution,
        failed: (error) => events.versionFailed?.(name, error),
      },
      options.versions,
    )
    this.sessions = new RoomSessions(name, store, {
      sessionStorageFailed: (room, error) => events.sessionStorageFailed?.(room, error),
      sessionWritesDropped: (room, by, first) =>
        events.sessionWritesDropped?.(room, by as Peer, first),
    })
    this.undoHistories = new RoomUndoHistories(name, store, options.undoHistoryLimits, {
      undoHistoryStorageFailed: (room, error) => events.undoHistoryStorageFailed?.(room, error),
      undoHistoryTrimmed: (room, dropped) => events.undoHistoryTrimmed?.(room, dropped),
    })
    this.appends = new AppendQueue(
      name,
      store,
      {
        stored: (batch, size) => this.applyStored(batch, size),
        failed: (error) => this.failStorage(error),
        measured: (bytes, milliseconds) => events.stored?.(name, bytes, milliseconds),
        handlerFailed: (error) => events.listenerFailed?.(name, error),
        authorOf: (origin) =>
          origin instanceof ServerChange
            ? { user: origin.user, time: Date.now(), acceptedBy: origin.acceptedBy }
            : this.peers.has(origin as Peer)
              ? this.authorOf(origin as Peer)
              : undefined,
      },
      options.maxUnstoredBytes,
    )
    const awarenessOptions: AwarenessOptions = {
      ...awarenessLimitsWithDefaults(options.awarenessLimits),
      maxClients: MAX_AWARENESS_CLIENTS_PER_CONNECTION,
      hideReadOnly: options.hideReadOnlyPresence ?? false,
    }
    this.presence = new RoomAwareness(
      this.doc,
      {
        broadcast: (update, except) => this.broadcast(awarenessUpdateMessage(update), except),
        publish: (update) => this.publish(RelayKind.awareness, update),
        showed: (peer, states) => this.recordSessions(peer, states),
        refused: (peer, client) => events.awarenessClaimRefused?.(name, peer, client),
        refusedRelayed: (client) => events.relayedClaimRefused?.(name, client),
      },
      awarenessOptions,
    )
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
    room.applyLog(stored.updates, FROM_STORE)
    room.doc.on('update', (update: Uint8Array, origin: unknown) => room.relay(update, origin))
    // Not at once: the clients waiting for the room get their answers first.
    room.scheduleCompaction(stored.size, COMPACT_AFTER_LOAD_MS)
    const early = room.early ?? []
    room.early = null
    for (const handle of early) handle()
    room.publish(RelayKind.queryAwareness, new Uint8Array(0))
    // An instance that died may have stored updates it never published; this load read them,
    // and the other instances with the room in memory read the store again to have them too.
    room.publish(RelayKind.reload, new Uint8Array(0))
    return room
  }

  /** The awareness states of the room's peers (and other instances' peers in it). */
  get awareness() {
    return this.presence.awareness
  }

  /** How many connections are in the room. */
  get size(): number {
    return this.peers.size
  }

  /** Adds a connection: sends it sync step 1 and everyone's awareness. */
  join(peer: Peer): void {
    this.assertOpen()
    this.peers.add(peer)
    this.presence.join(peer)
    peer.send(syncStep1Message(this.doc))
    if (this.awareness.getStates().size > 0) peer.reply('awareness', () => this.awarenessReply())
  }

  /** Removes a connection and, at once, the awareness states it spoke for; saves its session. */
  leave(peer: Peer): void {
    if (!this.peers.delete(peer)) return
    void this.sessions.flush()
    void this.undoHistories.flush()
    this.presence.leave(peer)
    this.acks.leave(peer)
  }

  /**
   * Handles one message from `peer`. Throws on a message that does not decode (the caller
   * closes that connection); unknown message types are ignored.
   */
  receive(peer: Peer, data: Uint8Array): void {
    if (this.closed || !this.peers.has(peer)) return
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
        // Asked, it is answered even when nobody is here (an update of no clients).
        peer.reply('awareness', () =>
          this.closed ? null : awarenessUpdateMessage(this.presence.encodeAll()),
        )
        return
      case MessageType.session:
        this.answerSession(peer, readSessionRequest(decoder))
        return
      case MessageType.saved:
        // Whatever the body says: it asks for saved messages, and a later version may say more.
        this.acks.ask(peer)
        return
      case MessageType.undoHistory:
        this.receiveUndoHistory(peer, readUndoHistoryMessage(decoder))
        return
      default:
        // Auth messages from clients and unknown types carry nothing for the server.
        return
    }
  }

  /** Resolves once every update received so far is stored and relayed. */
  flushed(): Promise<void> {
    return this.appends.flushed()
  }

  /** Waits for pending appends, then frees the document. The room is unusable afterwards. */
  async close(): Promise<void> {
    this.closed = true
    await this.appends.flushed()
    await this.versions.close()
    await this.sessions.close()
    this.acks.dispose()
    await this.undoHistories.close()
    this.unsubscribe()
    this.presence.destroy()
    this.changeCopy.drop()
    this.doc.destroy()
  }

  private receiveSync(peer: Peer, decoder: decoding.Decoder): void {
    const kind = decoding.readVarUint(decoder)
    if (kind === syncProtocol.messageYjsSyncStep1) {
      const stateVector = decoding.readVarUint8Array(decoder)
      // Decoded now, so that a malformed one is this message's error (the caller closes the
      // connection) rather than a failure later, outside any connection's handler.
      Y.decodeStateVector(stateVector)
      // The document holds only stored updates, so the answer can go at once.
      peer.reply('sync', () => (this.closed ? null : syncStep2Message(this.doc, stateVector)))
      return
    }
    if (kind !== syncProtocol.messageYjsSyncStep2 && kind !== syncProtocol.messageYjsUpdate) {
      throw new RangeError(`unknown sync message kind ${kind}`)
    }
    const update = decoding.readVarUint8Array(decoder)
    this.options.events?.receivedUpdate?.(this.name, update.length)
    // Decodes the whole update (a malformed one throws, and its connection is closed) and
    // leaves out what carries nothing new, such as a reconnecting client's delete set.
    const held = holdsUpdate(this.doc, update)
    // What the document holds, the store holds: saved, even for a read-only peer.
    if (held) this.acks.held(peer, update)
    if (peer.role === 'read') {
      this.options.events?.readOnlyUpdate?.(this.name, peer, !held)
      if (!held) peer.send(permissionDeniedMessage(READ_ONLY_REASON))
      return
    }
    if (held) return
    this.appends.push(update, peer)
    this.acks.pushed(peer)
  }

  /** Applies `peer`'s awareness update; one that breaks a rule closes only its sender. */
  private receiveAwareness(peer: Peer, update: Uint8Array): void {
    try {
      this.presence.receive(peer, update)
    } catch (error) {
      if (!(error instanceof AwarenessRefusal)) throw error
      this.options.events?.awarenessRefused?.(this.name, peer, error.message)
      const code = error.kind === 'malformed' ? CloseCode.malformed : CloseCode.policy
      peer.close(code, error.message)
      // Its states go now, not when its socket has finished closing.
      this.leave(peer)
    }
  }

  private awarenessReply(): Uint8Array | null {
    if (this.closed || this.awareness.getStates().size === 0) return null
    return awarenessUpdateMessage(this.presence.encodeAll())
  }

  /**
   * Who the store is told sent `peer`'s updates: its token's user, else the user id its
   * awareness claims, else `ANONYMOUS_AUTHOR`; a claim the store could not keep counts as none.
   */
  private authorOf(peer: Peer): UpdateAuthor {
    const time = Date.now()
    const user = peer.user ?? this.claimedUsers.get(peer) ?? ANONYMOUS_AUTHOR
    try {
      checkAuthor({ user, time })
      return { user, time }
    } catch {
      return { user: ANONYMOUS_AUTHOR, time }
    }
  }

  /**
   * Who inserted the text from offset `from` to `to` of the room's text as it reads now: runs
   * of (user, time), in text order.
   *
   * @example await room.authorsOf(0, 100) // => [{ from: 0, to: 42, user: 'ada', time }, …]
   */
  async authorsOf(from: number, to: number): Promise<AuthorRun[]> {
    const attribution = await this.attribution.current()
    return authorsOfText(this.doc.getText(this.textName), attribution, from, to)
  }

  /**
   * Changes the room's text as `user` (a restore, a program's change): `edit` makes the change
   * on a copy of the document, and the update it gives is stored, attributed to `user`, put in
   * the document and relayed, like a connection's. Resolves with the update once it is stored
   * and applied (empty when `edit` changed nothing). `text.doc` is the copy, so `edit` may
   * change other types of the document in the same change (a proposal's map entry).
   *
   * @example await room.change('ada', (text) => text.insert(0, 'Title\n'))
   */
  async change(
    user: string,
    edit: (text: Y.Text) => void,
    options: ChangeOptions = {},
  ): Promise<Uint8Array> {
    this.assertOpen()
    const { acceptedBy } = options
    checkAuthor({ user, time: Date.now(), acceptedBy })
    const update = this.changeCopy.change((copy) => edit(copy.getText(this.textName)))
    if (update === null) return new Uint8Array()
    this.appends.push(update, new ServerChange(user, acceptedBy))
    await this.appends.flushed()
    if (this.appends.failed) {
      this.changeCopy.drop()
      throw new Error(`the room ${this.name} could not store the change`)
    }
    return update
  }

  /**
   * Restores version `id` as a change by `user`: the fewest edits that make the text read as it
   * did then, so text both have keeps its identity (and everyone's carets and selections on
   * it). Resolves with the version and the changes made (offsets in the text before), or null
   * when the room has no such version.
   *
   * @example await room.restoreVersion('12', 'ada')
   */
  async restoreVersion(id: string, user: string): Promise<RestoredVersion | null> {
    const restore = await this.versions.changesToRestore(id)
    if (restore === null) return null
    await this.change(user, (text) => {
      // Last to first, so that each change's offsets still hold.
      for (const { from, to, insert } of [...restore.changes].reverse()) {
        if (to > from) text.delete(from, to - from)
        if (insert !== '') text.insert(from, insert)
      }
    })
    return restore
  }

  /** Sends `peer` its user's last session (an empty one when it has no user or none is kept). */
  private answerSession(peer: Peer, claimed: string): void {
    const user = peer.user ?? usableUserId(claimed)
    if (user === null) {
      peer.send(sessionAnswer('', null))
      return
    }
    this.sessions
      .lookup(user)
      .catch((error: unknown) => {
        this.options.events?.sessionStorageFailed?.(this.name, error)
        return null
      })
      .then((session) => {
        if (!this.closed && this.peers.has(peer)) peer.send(sessionAnswer(user, session))
      })
  }

  /**
   * Answers `peer`'s request for its user's undo history, or keeps the history it sent (cut to
   * the caps); a read-only connection's is not kept. Throws on a history that does not decode.
   */
  private receiveUndoHistory(peer: Peer, message: UndoHistoryMessage): void {
    const user = peer.user ?? usableUserId(message.user)
    if (message.kind === UndoHistoryKind.save) {
      if (user !== null && peer.role !== 'read') {
        this.undoHistories.save(user, message.history, peer)
      }
      return
    }
    if (message.kind !== UndoHistoryKind.request) return
    if (user === null) {
      peer.send(undoHistoryAnswer('', null))
      return
    }
    this.undoHistories
      .lookup(user)
      .catch((error: unknown) => {
        this.options.events?.undoHistoryStorageFailed?.(this.name, error)
        return null
      })
      .then((history) => {
        if (!this.closed && this.peers.has(peer)) peer.send(undoHistoryAnswer(user, history))
      })
  }

  /**
   * Keeps the session each of the states `peer` showed holds, under its connection's user;
   * not a state naming another user than the connection's (a tab relaying another user's tab
   * over BroadcastChannel).
   */
  private recordSessions(peer: Peer, shown: readonly ShownState[]): void {
    for (const { state } of shown) {
      const claimed = readUserId(state)
      if (peer.user === undefined && claimed !== null) this.claimedUsers.set(peer, claimed)
      if (peer.user !== undefined && claimed !== null && claimed !== peer.user) continue
      const user = peer.user ?? claimed
      const session = user === null ? null : sessionFromState(state)
      if (user !== null && session !== null) this.sessions.record(user, session, peer)
    }
  }

  /** The store holds `batch`: into the document with it, which relays it (see `relay`). */
  private applyStored(batch: readonly StoredUpdate[], size: LogSize): void {
    for (const { update, origin, author } of batch) {
      try {
        Y.applyUpdate(this.doc, update, origin)
      } catch (error) {
        this.options.events?.applyFailed?.(this.name, error)
      }
      this.attribution.stored(update, author)
    }
    if (batch.length > 0) this.versions.changed()
    // Only now, with the batch in the document: its authors' saved messages must cover it.
    this.acks.stored(batch)
    if (!this.closed) this.scheduleCompaction(size)
  }

  /**
   * Applies updates read from the store (or another instance's), each on its own: one that
   * Yjs cannot apply is reported and skipped, and the room still loads.
   */
  private applyLog(updates: readonly Uint8Array[], origin: symbol): void {
    if (origin === FROM_RELAY) this.attribution.invalidate()
    Y.transact(
      this.doc,
      () => {
        for (const update of updates) {
          try {
            Y.applyUpdate(this.doc, update, origin)
          } catch (error) {
            this.options.events?.applyFailed?.(this.name, error)
          }
        }
      },
      origin,
    )
  }

  /** Sends what the document just took in to the connections and instances that lack it. */
  private relay(update: Uint8Array, origin: unknown): void {
    if (origin === FROM_STORE) return
    try {
      this.broadcast(updateMessage(update), origin)
      // Another instance stored and published it; what the store gave back is everyone's already.
      if (origin !== FROM_RELAY) this.publish(RelayKind.update, update)
    } catch (error) {
      this.options.events?.listenerFailed?.(this.name, error)
    }
  }

  /**
   * An append failed: drop every connection, so that the document is reloaded from the store
   * and the clients, who still have their updates, send them again when they reconnect.
   */
  private failStorage(error: unknown): void {
    this.options.events?.storageFailed?.(this.name, error)
    this.closed = true
    this.acks.dispose()
    this.unsubscribe()
    for (const peer of [...this.peers]) peer.close(CloseCode.storageFailed, 'storage failed')
    this.peers.clear()
  }

  private whenLoaded(handle: () => void): void {
    if (this.early !== null) this.early.push(handle)
    else if (!this.closed) handle()
  }

  private receiveRelayed(kind: RelayKind, data: Uint8Array, from: string): void {
    try {
      switch (kind) {
        case RelayKind.update: {
          this.attribution.invalidate()
          const pending = pendingBytes(this.doc)
          Y.applyUpdate(this.doc, data, FROM_RELAY)
          // Another instance's updates arrive in order; one that builds on something this
          // document never got means an update was stored but never published (its instance
          // died between the two): the store has it.
          if (pendingBytes(this.doc) > pending) this.reloadFromStore()
          return
        }
        case RelayKind.awareness:
          this.presence.receiveRelayed(from, data, FROM_RELAY)
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
          this.applyLog(stored.updates, FROM_RELAY)
        } catch (error) {
          this.options.events?.relayFailed?.(this.name, error)
        }
      } while (this.reloadAgain && !this.closed)
      this.reloading = false
    })()
  }

  /** Publishes the awareness states of this instance's connections. */
  private publishLocalAwareness(): void {
    const update = this.presence.encodeLocal()
    if (update !== null) this.publish(RelayKind.awareness, update)
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
