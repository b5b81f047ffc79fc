/**
 * `connect`: an editor (or a bare Y.Doc) synced with a y-websocket server, with its tabs in one
 * browser synced directly over BroadcastChannel and, when asked, its document kept in
 * IndexedDB for offline work.
 */
import type { Range, TextEditor } from '@tandem/editor'
import {
  MessageType,
  readSavedMessage,
  readSessionAnswer,
  readUndoHistoryMessage,
  type SavedState,
  savedRequest,
  sessionRequest,
  tokenMessage,
} from '@tandem/protocol'
import { CompositeDisposable, Disposable, Emitter } from '@tandem/text'
import { IndexeddbPersistence } from 'y-indexeddb'
import * as authProtocol from 'y-protocols/auth'
import { Awareness } from 'y-protocols/awareness'
import { WebsocketProvider } from 'y-websocket'
import type * as Y from 'yjs'
import {
  AuthError,
  type AuthFailure,
  authFailureFromClose,
  ConnectError,
  type ConnectFailure,
  probeConnection,
} from './auth-failure.js'
import { type AwarenessBinding, bindAwareness } from './bind-awareness.js'
import { type AuthorSpan, DocumentHistory } from './document-history.js'
import type { FollowingChangeEvent, FollowViewport, PeerFollowing } from './following.js'
import type { CollabUser, RemoteCursor } from './peers.js'
import { ProgramChanges } from './program-changes.js'
import { DocumentProposals } from './proposals.js'
import { restoreSession } from './session.js'
import { type UndoHistoryOptions, UndoHistorySync } from './undo-sync.js'
import { type SavedStatus, UnsavedUpdates } from './unsaved-updates.js'

/** `WebSocket.OPEN`, the same in browsers and in the `ws` package. */
const OPEN = 1

/**
 * Where a connection stands. `connecting`: the first attempt (or the first after a drop) is
 * under way. `connected`: the socket is open, the initial sync is not done. `synced`: this
 * document and the server's have exchanged everything. `offline`: no server connection
 * (unreachable, dropped, refused, or disconnected on purpose); edits stay local and are
 * sent on reconnection, and the attempts go on in the background unless refused or stopped.
 */
export type ConnectionStatus = 'connecting' | 'connected' | 'synced' | 'offline'

/** A WebSocket class: the browser's `WebSocket`, or the `ws` package's in Node. */
export type WebSocketClass = new (url: string, protocols?: string | string[]) => object

/** Options of `connect`. */
export interface ConnectOptions {
  /** The server, `ws://` or `wss://`, e.g. `'wss://example.com/collab'`. */
  readonly url: string
  /** The document's name on the server; it becomes the last segment of the URL's path. */
  readonly room: string
  /** Sent as the `token` query parameter, for servers that check who may read or write. */
  readonly token?: string
  /** Who this user is, as other peers see them. */
  readonly user: CollabUser
  /** Keeps the document in IndexedDB, so it opens and takes edits without a server. Browsers only. */
  readonly offline?: boolean
  /** Syncs tabs of one browser directly over BroadcastChannel (default true). */
  readonly crossTab?: boolean
  /** Defaults to the global `WebSocket`; pass the `ws` package's in Node 20. */
  readonly WebSocket?: WebSocketClass
  /** Start connecting at once (default true); else call `reconnect()`. */
  readonly autoConnect?: boolean
  /** Longest wait between two connection attempts, in milliseconds (default 2500). */
  readonly maxBackoffMs?: number
  /**
   * How often the editor's selections may be published (see `bindAwareness`), and the rows in
   * sight (see `attachViewport`).
   */
  readonly throttleMs?: number
  /**
   * Puts the editor's selections back where this user last had them in this room, once the
   * first sync is done (default true with an editor). Needs a server that keeps sessions
   * (`@tandem/server`) and a user id: the token's, or else `user.id`.
   */
  readonly restoreSession?: boolean
  /**
   * Keeps the editor's undo history (its steps, with the selections around them) on the
   * server, under this user, and in IndexedDB with `offline`; after a reload, a reconnect or on
   * another device, an editor with no steps of its own takes it, so undo goes on where it left
   * off (default true with an editor). Needs a server that keeps undo histories
   * (`@tandem/server`) and a user id: the token's, or else `user.id`. Options set the caps and
   * the delay before a change is saved.
   */
  readonly undoHistory?: boolean | UndoHistoryOptions
}

/** What `connect` returns. */
export interface CollabConnection {
  /** The document synced with the server; the editor's text lives in it. */
  readonly doc: Y.Doc
  /** The presence channel shared with the room's other clients. */
  readonly awareness: Awareness
  /** The editor given to `connect`, or null when it was given a Y.Doc. */
  readonly editor: TextEditor | null
  /** The remote-caret binding of `editor`, or null without an editor. */
  readonly binding: AwarenessBinding | null
  /** The underlying y-websocket provider, for what this handle does not cover. */
  readonly provider: WebsocketProvider
  /** The current status; `onDidChangeStatus` tells when it changes. */
  readonly status: ConnectionStatus
  /** The last refusal from the server, or null. */
  readonly authFailure: AuthFailure | null
  /**
   * Why the last attempt to connect failed (nothing listening, an address the server refuses,
   * a server that takes no WebSockets there, a server error), or null once connected.
   */
  readonly connectFailure: ConnectFailure | null
  /**
   * Resolves the first time the document has synced with the server. Rejects with an
   * `AuthError` when the server refuses this client, with a `ConnectError` when it refuses the
   * address for good (`connectFailure.kind` `refused`), or with an `Error` when the connection
   * is destroyed first.
   */
  readonly whenSynced: Promise<void>
  /** Resolves once the document kept in IndexedDB has loaded (at once without `offline`). */
  readonly whenLoaded: Promise<void>
  /**
   * True when the server's store holds every update made in this page (edits, and what the
   * offline store loaded): the server said so, in a saved message covering them. Edits made
   * offline or while the server is still writing are unsaved until then. Needs a server that
   * sends saved messages (`@tandem/server`); with another, it turns false at the first edit.
   */
  readonly saved: boolean
  /** How many updates made in this page the server's store is not known to hold yet. */
  readonly unsavedUpdates: number
  /**
   * Calls `callback` whenever `saved` or `unsavedUpdates` changes.
   *
   * @example connection.onDidChangeSaved(({ saved }) => (badge.textContent = saved ? 'Saved' : 'Saving'))
   */
  onDidChangeSaved(callback: (state: SavedStatus) => void): Disposable
  /**
   * The document's history on the server: who wrote what, and its versions (see
   * `DocumentHistory`; needs a `@tandem/server`).
   */
  readonly history: DocumentHistory
  /**
   * The changes programs propose on the text, as they stand now, to accept or reject through
   * the server, and `propose` for a program (see `DocumentProposals`; accepting and rejecting
   * need a `@tandem/server`).
   *
   * @example connection.proposals.onDidChange(() => render(connection.proposals.list()))
   */
  readonly proposals: DocumentProposals
  /**
   * The changes programs made in the document, as the server logs them, and undoing them as
   * this user (see `ProgramChanges`; needs a `@tandem/server`).
   */
  readonly programs: ProgramChanges
  /**
   * Who wrote the text in `range` (a buffer range with an editor, else `{from, to}`
   * offsets; the whole text when omitted), asked of the server and cached until new updates
   * arrive: `history.authorsOf`.
   *
   * @example const spans = await connection.authorsOf([[0, 0], [3, 0]])
   */
  authorsOf(
    range?: Range | [[number, number], [number, number]] | { from: number; to: number },
  ): Promise<AuthorSpan[]>
  /** The other peers shown in the editor, with their selections (empty without an editor). */
  getRemoteCursors(): RemoteCursor[]
  /** Calls `callback` with every new status. */
  onDidChangeStatus(callback: (status: ConnectionStatus) => void): Disposable
  /** Calls `callback` when the server refuses this client; attempts then stop. */
  onDidFailAuth(callback: (failure: AuthFailure) => void): Disposable
  /**
   * Calls `callback` when an attempt to connect fails for a reason other than the token, with
   * why (once per reason while it lasts). Attempts go on, except after a `refused` failure.
   */
  onDidFailToConnect(callback: (failure: ConnectFailure) => void): Disposable
  /**
   * Calls `callback` with the server's reason when it refused one of this client's updates
   * (a read-only client that edited); the connection stays open.
   */
  onDidDenyUpdate(callback: (reason: string) => void): Disposable
  /** Calls `callback` with the ranges selected when the user's last session was restored. */
  onDidRestoreSession(callback: (ranges: Range[]) => void): Disposable
  /**
   * Calls `callback` with the number of steps when a saved undo history (from the server, or
   * from IndexedDB) became the editor's: undo now reverts what the user did before.
   *
   * @example connection.onDidRestoreUndoHistory((steps) => console.log(`${steps} steps to undo`))
   */
  onDidRestoreUndoHistory(callback: (steps: number) => void): Disposable
  /**
   * Saves the editor's undo history now (to the server when connected, and offline) rather than
   * a moment after its last change, e.g. when the page is hidden. Does nothing without one.
   *
   * @example addEventListener('pagehide', () => connection.flushUndoHistory())
   */
  flushUndoHistory(): void
  /** Connects again after `disconnect()` or a refusal (e.g. with a new token, see `setToken`). */
  reconnect(): void
  /** Replaces the token sent on the next connection attempt; the open connection keeps its own. */
  setToken(token: string | undefined): void
  /**
   * Hands `token` over to the server on the open connection, without reconnecting, and sends
   * it on every later connection attempt too. Call it before the current token expires: a
   * `@tandem/server` closes a connection whose token expired (4401), and takes a fresh token's
   * role and expiry (a refused one closes the connection, reported by `onDidFailAuth`). Offline
   * or while connecting, the token is handed over as soon as the socket opens, unless that
   * socket already carries it.
   *
   * @example connection.renewToken(await fetchFreshToken())
   */
  renewToken(token: string): void
  /** The client id of the peer this client follows, or null (see `follow`). */
  readonly following: number | null
  /**
   * Follows the peer with awareness client id `clientId`: the editor's view keeps that peer's
   * rows and primary caret in sight and scrolls as they scroll, until this user edits, changes
   * a selection or scrolls, or the peer leaves (see `PeerFollowing`). Needs an editor; its
   * view scrolls rows to the top once attached with `attachViewport`, and only the caret is
   * kept in sight until then.
   *
   * @example connection.follow(connection.getRemoteCursors()[0].clientId)
   */
  follow(clientId: number): void
  /** Stops following, with reason `unfollow`. */
  unfollow(): void
  /** The client ids of the peers following this client, in increasing order. */
  followers(): number[]
  /** Calls `callback` when this client starts, moves or stops following, with why it stopped. */
  onDidChangeFollowing(callback: (event: FollowingChangeEvent) => void): Disposable
  /** Calls `callback` with the followers' client ids whenever they change. */
  onDidChangeFollowers(callback: (followers: readonly number[]) => void): Disposable
  /**
   * Attaches the view showing the editor (an `EditorView` from `@tandem/view` fits): its rows in
   * sight are published for followers, it is scrolled while following, and its user's scrolling
   * stops following. Dispose the result when the view goes.
   *
   * @example const attached = connection.attachViewport(view)
   */
  attachViewport(viewport: FollowViewport): Disposable
  /** Closes the server connection and stops the attempts; local editing goes on. */
  disconnect(): void
  /** Disconnects, clears this user's carets from other peers, and releases everything. */
  destroy(): void
}

interface ConnectionEvents {
  'did-change-status': ConnectionStatus
  'did-fail-auth': AuthFailure
  'did-fail-to-connect': ConnectFailure
  'did-deny-update': string
  'did-restore-session': Range[]
  'did-change-saved': SavedStatus
  'did-restore-undo-history': number
}

/**
 * Connects `target` (a Tandem editor, or a Y.Doc for applications without one) to a y-websocket
 * server. With an editor, its selections are published and other peers' carets shown in it
 * (`bindAwareness`); with a Y.Doc, only `user` is published.
 *
 * @example
 * const connection = connect(editor, { url: 'wss://example.com', room: 'notes', user: { name: 'Ada', color: '#d33' } })
 * connection.onDidChangeStatus((status) => (badge.textContent = status))
 * await connection.whenSynced
 */
export const connect = (target: TextEditor | Y.Doc, options: ConnectOptions): CollabConnection => {
  const editor = isEditor(target) ? target : null
  const doc = editor ? editor.getBuffer().doc : (target as Y.Doc)
  const settings = checkOptions(options)
  const awareness = new Awareness(doc)
  const provider = new WebsocketProvider(settings.url, encodeURIComponent(settings.room), doc, {
    connect: false,
    awareness,
    params: settings.token === undefined ? {} : { token: settings.token },
    WebSocketPolyfill: settings.WebSocket as unknown as typeof WebSocket,
    maxBackoffTime: settings.maxBackoffMs,
    disableBc: !settings.crossTab,
  })
  const persistence = settings.offline
    ? new IndexeddbPersistence(persistenceName(settings), doc)
    : null
  const restoreFor =
    editor && settings.restoreSession && (settings.token !== undefined || settings.user.id)
      ? (settings.user.id ?? '')
      : null
  const binding = editor
    ? bindAwareness(editor, awareness, {
        user: settings.user,
        throttleMs: settings.throttleMs,
        // Where the editor opened must not become the session asked for (see askForSession).
        holdSelections: restoreFor !== null,
      })
    : null
  if (!editor) awareness.setLocalStateField('user', { ...settings.user })
  // Made after the history keeper, which reports restores (they come later, once synced).
  let connection: Connection | null = null
  const undoFor = settings.token !== undefined || settings.user.id ? (settings.user.id ?? '') : null
  const undoSync =
    editor && settings.undoHistory !== false && undoFor !== null
      ? new UndoHistorySync(
          editor,
          provider,
          // Offline copies are kept per user.id: without one, a browser cannot tell whose.
          settings.user.id ? persistence : null,
          undoFor,
          settings.undoHistory === true ? {} : settings.undoHistory,
          (steps) => connection?.restoredUndoHistory(steps),
        )
      : null
  connection = new Connection(
    doc,
    awareness,
    editor,
    binding,
    provider,
    persistence,
    settings.autoConnect,
    restoreFor,
    undoSync,
  )
  return connection
}

/** The handle `connect` returns. */
class Connection implements CollabConnection {
  private readonly emitter = new Emitter<ConnectionEvents>()
  private readonly subscriptions = new CompositeDisposable()
  private currentStatus: ConnectionStatus = 'offline'
  private failure: AuthFailure | null = null
  private lastConnectFailure: ConnectFailure | null = null
  /** Whether the socket opened since the attempt began: a close before that is a failed attempt. */
  private opened = false
  /** Whether an attempt failed since the socket was last open: retries then stay `offline`. */
  private failing = false
  private destroyed = false
  /** The token the server holds for the current socket: the one it opened with, or handed over. */
  private socketToken: string | undefined
  private settleSynced!: { resolve: () => void; reject: (error: Error) => void }
  private readonly unsaved: UnsavedUpdates
  private documentHistory: DocumentHistory | null = null
  private documentProposals: DocumentProposals | null = null
  private programChanges: ProgramChanges | null = null
  readonly whenSynced: Promise<void>
  readonly whenLoaded: Promise<void>

  constructor(
    readonly doc: Y.Doc,
    readonly awareness: Awareness,
    readonly editor: TextEditor | null,
    readonly binding: AwarenessBinding | null,
    readonly provider: WebsocketProvider,
    private readonly persistence: IndexeddbPersistence | null,
    autoConnect: boolean,
    /** The user id to ask the session of (see `sessionRequest`), or null not to ask. */
    private restoreFor: string | null,
    /** Keeps the editor's undo history on the server and offline; null without one. */
    private readonly undoSync: UndoHistorySync | null = null,
  ) {
    this.whenSynced = new Promise<void>((resolve, reject) => {
      this.settleSynced = { resolve, reject }
    })
    // Nobody has to await it: an unawaited rejection must not end a Node process.
    this.whenSynced.catch(() => {})
    this.whenLoaded = persistence ? persistence.whenSynced.then(() => {}) : Promise.resolve()
    // Before the offline store loads, so what it brings counts as unsaved until the server has it.
    this.unsaved = new UnsavedUpdates(
      doc,
      (origin) => origin === provider,
      (state) => this.emitter.emit('did-change-saved', state),
    )
    this.listenToProvider()
    if (autoConnect) this.reconnect()
    else this.binding?.releaseSelections()
  }

  get status(): ConnectionStatus {
    return this.currentStatus
  }

  get authFailure(): AuthFailure | null {
    return this.failure
  }

  get connectFailure(): ConnectFailure | null {
    return this.lastConnectFailure
  }

  get saved(): boolean {
    return this.unsaved.status.saved
  }

  get unsavedUpdates(): number {
    return this.unsaved.status.unsavedUpdates
  }

  onDidChangeSaved(callback: (state: SavedStatus) => void): Disposable {
    return this.emitter.on('did-change-saved', callback)
  }

  get history(): DocumentHistory {
    this.documentHistory ??= new DocumentHistory(this.doc, this.editor, {
      url: this.provider.serverUrl,
      room: decodeURIComponent(this.provider.roomname),
      token: () => this.provider.params.token,
    })
    return this.documentHistory
  }

  get proposals(): DocumentProposals {
    this.documentProposals ??= new DocumentProposals(this.doc, this.editor, {
      url: this.provider.serverUrl,
      room: decodeURIComponent(this.provider.roomname),
      token: () => this.provider.params.token,
      user: () => {
        const user = (this.awareness.getLocalState()?.user ?? null) as CollabUser | null
        return user ?? { name: 'Unknown', color: '' }
      },
    })
    return this.documentProposals
  }

  get programs(): ProgramChanges {
    this.programChanges ??= new ProgramChanges({
      url: this.provider.serverUrl,
      room: decodeURIComponent(this.provider.roomname),
      token: () => this.provider.params.token,
    })
    return this.programChanges
  }

  authorsOf(
    range?: Range | [[number, number], [number, number]] | { from: number; to: number },
  ): Promise<AuthorSpan[]> {
    return this.history.authorsOf(range)
  }

  getRemoteCursors(): RemoteCursor[] {
    return this.binding ? this.binding.getRemoteCursors() : []
  }

  onDidChangeStatus(callback: (status: ConnectionStatus) => void): Disposable {
    return this.emitter.on('did-change-status', callback)
  }

  onDidFailAuth(callback: (failure: AuthFailure) => void): Disposable {
    return this.emitter.on('did-fail-auth', callback)
  }

  onDidFailToConnect(callback: (failure: ConnectFailure) => void): Disposable {
    return this.emitter.on('did-fail-to-connect', callback)
  }

  onDidDenyUpdate(callback: (reason: string) => void): Disposable {
    return this.emitter.on('did-deny-update', callback)
  }

  onDidRestoreSession(callback: (ranges: Range[]) => void): Disposable {
    return this.emitter.on('did-restore-session', callback)
  }

  get following(): number | null {
    return this.binding?.peerFollowing.following ?? null
  }

  follow(clientId: number): void {
    this.assertAlive('follow')
    this.peerFollowing('follow').follow(clientId)
  }

  unfollow(): void {
    this.binding?.peerFollowing.unfollow()
  }

  followers(): number[] {
    return this.binding?.peerFollowing.followers() ?? []
  }

  onDidChangeFollowing(callback: (event: FollowingChangeEvent) => void): Disposable {
    return this.binding?.peerFollowing.onDidChangeFollowing(callback) ?? new Disposable()
  }

  onDidChangeFollowers(callback: (followers: readonly number[]) => void): Disposable {
    return this.binding?.peerFollowing.onDidChangeFollowers(callback) ?? new Disposable()
  }

  attachViewport(viewport: FollowViewport): Disposable {
    this.assertAlive('attachViewport')
    return this.peerFollowing('attachViewport').attachViewport(viewport)
  }

  private peerFollowing(method: string): PeerFollowing {
    if (this.binding === null) {
      throw new Error(`${method}: following needs a connection made with an editor`)
    }
    return this.binding.peerFollowing
  }

  onDidRestoreUndoHistory(callback: (steps: number) => void): Disposable {
    return this.emitter.on('did-restore-undo-history', callback)
  }

  /** @internal Reports a saved undo history that became the editor's. */
  restoredUndoHistory(steps: number): void {
    if (!this.emitter.disposed) this.emitter.emit('did-restore-undo-history', steps)
  }

  flushUndoHistory(): void {
    this.assertAlive('flushUndoHistory')
    this.undoSync?.flush()
  }

  reconnect(): void {
    this.assertAlive('reconnect')
    this.failure = null
    this.failing = false
    if (this.provider.wsconnected || this.provider.ws !== null) return
    this.provider.connect()
  }

  setToken(token: string | undefined): void {
    this.assertAlive('setToken')
    if (token !== undefined && typeof token !== 'string') {
      throw new TypeError(`a token must be a string, got ${typeof token}`)
    }
    const { token: _old, ...rest } = this.provider.params
    this.provider.params = token === undefined ? rest : { ...rest, token }
  }

  renewToken(token: string): void {
    this.assertAlive('renewToken')
    if (typeof token !== 'string' || token === '') {
      throw new TypeError(
        `renewToken: a token must be a non-empty string, got ${JSON.stringify(token)}`,
      )
    }
    this.setToken(token)
    this.handOverToken()
  }

  disconnect(): void {
    this.assertAlive('disconnect')
    this.provider.disconnect()
    this.setStatus('offline')
  }

  destroy(): void {
    if (this.destroyed) return
    // Clear this user's carets while the socket is still open, so peers see them go at once.
    this.binding?.dispose()
    // Saved while the socket is open: a change within the save delay is not lost.
    this.undoSync?.destroy()
    this.provider.destroy()
    this.persistence?.destroy()
    this.awareness.destroy()
    this.unsaved.dispose()
    this.documentHistory?.dispose()
    this.documentProposals?.dispose()
    this.subscriptions.dispose()
    this.destroyed = true
    this.setStatus('offline')
    this.settleSynced.reject(new Error('the connection was destroyed before it synced'))
    this.emitter.dispose()
  }

  private listenToProvider(): void {
    const { provider } = this
    const onStatus = ({ status }: { status: string }) => {
      if (status === 'connecting') {
        // The socket just made carries the token in the parameters now.
        this.socketToken = provider.params.token
        this.opened = false
        if (!this.failing) this.setStatus('connecting')
      } else if (status === 'connected') {
        this.opened = true
        this.failing = false
        this.lastConnectFailure = null
        // First, so that everything this client sends is judged under its latest token.
        this.handOverToken()
        // Before this client's own selections reach the server and become its last session.
        this.askForSession()
        this.provider.ws?.send(savedRequest())
        this.undoSync?.connected()
        this.renewLocalState()
        this.setStatus('connected')
      } else if (status === 'disconnected') {
        this.setStatus('offline')
      }
    }
    const onSync = (synced: boolean) => {
      if (!synced) return
      this.setStatus('synced')
      this.settleSynced.resolve()
    }
    const onClose = (event: unknown) => {
      const failure = authFailureFromClose(event)
      if (failure) return this.refuse(failure)
      if (!this.opened && event !== null) this.afterFailedAttempt()
    }
    provider.on('status', onStatus)
    provider.on('sync', onSync)
    provider.on('connection-close', onClose)
    // y-websocket only logs a refused update; tell the application instead.
    provider.messageHandlers[MessageType.auth] = (_encoder, decoder) => {
      authProtocol.readAuthMessage(decoder, this.doc, (_doc, reason) => {
        this.emitter.emit('did-deny-update', reason)
      })
    }
    provider.messageHandlers[MessageType.session] = (_encoder, decoder) => {
      const { session } = readSessionAnswer(decoder)
      if (session !== null) void this.whenSynced.then(() => this.restore(session))
    }
    provider.messageHandlers[MessageType.saved] = (_encoder, decoder) => {
      // A saved message that does not decode says nothing: everything stays as unsaved as it was.
      let state: SavedState
      try {
        state = readSavedMessage(decoder)
      } catch {
        return
      }
      this.unsaved.acknowledge(state)
    }
    provider.messageHandlers[MessageType.undoHistory] = (_encoder, decoder) => {
      this.undoSync?.received(readUndoHistoryMessage(decoder))
    }
    this.subscriptions.add({
      dispose: () => {
        provider.off('status', onStatus)
        provider.off('sync', onSync)
        provider.off('connection-close', onClose)
      },
    })
  }

  /**
   * Asks the server for this user's last session, once per connection handle, before this
   * client publishes any selection: until it has synced, its selections are held back, so
   * that neither this socket nor another tab relaying this one over BroadcastChannel can
   * make the editor's opening caret the answer.
   */
  private askForSession(): void {
    if (this.restoreFor === null) return
    this.provider.ws?.send(sessionRequest(this.restoreFor))
    this.restoreFor = null
  }

  /** Sends the latest token over the open socket, unless the server already holds it there. */
  private handOverToken(): void {
    const token = this.provider.params.token
    const ws = this.provider.ws
    if (token === undefined || token === this.socketToken) return
    if (!this.provider.wsconnected || ws === null || ws.readyState !== OPEN) return
    ws.send(tokenMessage(token))
    this.socketToken = token
  }

  private restore(session: string): void {
    if (this.destroyed || !this.editor) return
    const ranges = restoreSession(this.editor, session)
    if (ranges) this.emitter.emit('did-restore-session', ranges)
  }

  /**
   * Sends this client's awareness state under a new clock. Peers that saw this client leave
   * (they drop a lost connection's clients, or the server told them it left) keep its last
   * clock and ignore a state that does not beat it: without a new one, this client would stay
   * invisible to them until its next change or the renewal 15 s later.
   */
  private renewLocalState(): void {
    const state = this.awareness.getLocalState()
    if (state !== null) this.awareness.setLocalState({ ...state })
  }

  /** A socket that closed before it opened: offline, and maybe refused (asked over HTTP). */
  private afterFailedAttempt(): void {
    this.failing = true
    this.setStatus('offline')
    const url = this.provider.url
    void probeConnection(url).then((answer) => {
      if (this.destroyed || !this.provider.shouldConnect || this.provider.wsconnected) return
      if (answer.auth !== undefined) this.refuse(answer.auth)
      else if (answer.failure !== undefined) this.failToConnect(answer.failure)
    })
  }

  private failToConnect(failure: ConnectFailure): void {
    const known = this.lastConnectFailure
    this.lastConnectFailure = failure
    if (failure.kind === 'refused') {
      this.provider.disconnect()
      this.settleSynced.reject(new ConnectError(failure))
    }
    if (known?.reason === failure.reason) return
    this.emitter.emit('did-fail-to-connect', failure)
  }

  private refuse(failure: AuthFailure): void {
    this.failure = failure
    this.provider.disconnect()
    this.setStatus('offline')
    this.settleSynced.reject(new AuthError(failure))
    this.emitter.emit('did-fail-auth', failure)
  }

  private setStatus(status: ConnectionStatus): void {
    // Once synced, the session request has been answered (it went first); offline, it cannot
    // be, and tabs must still see this one's carets.
    if (status === 'synced' || status === 'offline') this.binding?.releaseSelections()
    if (status === this.currentStatus) return
    this.currentStatus = status
    if (!this.emitter.disposed) this.emitter.emit('did-change-status', status)
  }

  private assertAlive(method: string): void {
    if (this.destroyed) throw new Error(`${method}: this connection was destroyed`)
  }
}

/** `connect`'s options, checked, with defaults filled in. */
interface Settings {
  readonly url: string
  readonly room: string
  readonly token: string | undefined
  readonly user: CollabUser
  readonly offline: boolean
  readonly crossTab: boolean
  readonly WebSocket: WebSocketClass
  readonly autoConnect: boolean
  readonly maxBackoffMs: number
  readonly throttleMs: number | undefined
  readonly restoreSession: boolean
  readonly undoHistory: boolean | UndoHistoryOptions
}

const checkOptions = (options: ConnectOptions): Settings => {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('connect needs options: { url, room, user }')
  }
  const { url, room, token } = options
  if (typeof url !== 'string' || !/^wss?:\/\/[^/]/.test(url) || !URL.canParse(url)) {
    throw new TypeError(`connect: url must be a ws:// or wss:// URL, got ${JSON.stringify(url)}`)
  }
  if (typeof room !== 'string' || room === '') {
    throw new TypeError(`connect: room must be a non-empty string, got ${JSON.stringify(room)}`)
  }
  if (token !== undefined && typeof token !== 'string') {
    throw new TypeError(`connect: token must be a string, got ${typeof token}`)
  }
  const { user } = options
  if (typeof user !== 'object' || user === null || typeof user.name !== 'string') {
    throw new TypeError('connect needs options.user with at least a name and a color')
  }
  const WebSocketClass =
    options.WebSocket ?? (globalThis as { WebSocket?: WebSocketClass }).WebSocket
  if (typeof WebSocketClass !== 'function') {
    throw new TypeError(
      "connect: this environment has no WebSocket; pass one, e.g. { WebSocket } from the 'ws' package",
    )
  }
  const offline = options.offline === true
  if (offline && (globalThis as { indexedDB?: unknown }).indexedDB === undefined) {
    throw new TypeError('connect: offline needs IndexedDB, which only browsers have')
  }
  const maxBackoffMs = options.maxBackoffMs ?? 2_500
  if (!(typeof maxBackoffMs === 'number' && maxBackoffMs >= 0)) {
    throw new RangeError(`connect: maxBackoffMs must be >= 0, got ${maxBackoffMs}`)
  }
  return {
    url: url.replace(/\/+$/, ''),
    room,
    token,
    user,
    offline,
    crossTab: options.crossTab !== false,
    WebSocket: WebSocketClass,
    autoConnect: options.autoConnect !== false,
    maxBackoffMs,
    throttleMs: options.throttleMs,
    restoreSession: options.restoreSession !== false,
    undoHistory: undoHistoryOption(options.undoHistory),
  }
}

/** The `undoHistory` option, checked: its caps must be usable ones. */
const undoHistoryOption = (option: ConnectOptions['undoHistory']): boolean | UndoHistoryOptions => {
  if (option === undefined || option === true) return true
  if (option === false) return false
  if (typeof option !== 'object' || option === null) {
    throw new TypeError(`connect: undoHistory must be a boolean or options, got ${typeof option}`)
  }
  for (const name of ['maxSteps', 'maxBytes', 'saveDelayMs'] as const) {
    const value = option[name]
    if (value === undefined) continue
    const usable = name === 'saveDelayMs' ? value >= 0 : value > 0
    if (typeof value !== 'number' || Number.isNaN(value) || !usable) {
      throw new RangeError(`connect: undoHistory.${name} must be a positive number, got ${value}`)
    }
  }
  return option
}

/** The IndexedDB database of a room: one per server and room. */
const persistenceName = (settings: Settings): string => `tandem:${settings.url}/${settings.room}`

const isEditor = (target: TextEditor | Y.Doc): target is TextEditor =>
  typeof (target as TextEditor).getBuffer === 'function'
