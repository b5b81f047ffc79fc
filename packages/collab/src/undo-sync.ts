/**
 * Undo that survives a reload, a reconnect and a change of device: the editor's undo and redo
 * steps (Yjs ids, and the selections around each step as relative positions) are kept on the
 * server under the user, and in IndexedDB with the document when it is kept offline.
 *
 * A moment after the steps change, the history (its newest steps, within the caps) goes to the
 * server and to IndexedDB. Each time the socket opens the client asks for the user's history;
 * while this editor has made no step of its own, the answer (or, offline, the copy in
 * IndexedDB) becomes its history once the document has synced, so ctrl-z undoes what the user
 * did before the reload or on the other device. A copy in IndexedDB that the server has not had
 * yet (steps made offline) goes to the server instead of being replaced by its answer; so does
 * any answer to a request made before a save: the server holds this editor's history since.
 */
import type { TextEditor } from '@tandem/editor'
import {
  DEFAULT_UNDO_HISTORY_LIMITS,
  decodeUndoHistory,
  encodeUndoHistory,
  trimUndoHistory,
  UndoHistoryKind,
  type UndoHistoryLimits,
  type UndoHistoryMessage,
  undoHistoryRequest,
  undoHistorySave,
} from '@tandem/protocol'
import type { Disposable } from '@tandem/text'
import type { IndexeddbPersistence } from 'y-indexeddb'
import type { WebsocketProvider } from 'y-websocket'

/** `WebSocket.OPEN`, the same in browsers and in the `ws` package. */
const OPEN = 1

/**
 * How `connect` keeps the editor's undo history (its `undoHistory` option).
 *
 * @example connect(editor, { url, room, user, undoHistory: { maxSteps: 200, saveDelayMs: 500 } })
 */
export interface UndoHistoryOptions {
  /** Steps kept, undo and redo together (default 500); the oldest go first. */
  readonly maxSteps?: number
  /** Bytes of the encoded history (default 512 KiB); the oldest steps go first. */
  readonly maxBytes?: number
  /** How long after a change the history is saved (default 500 ms), so typing is one save. */
  readonly saveDelayMs?: number
}

/** What IndexedDB holds: the history, and whether the server has had it. */
interface StoredCopy {
  readonly history: Uint8Array
  readonly sent: boolean
}

/** @internal Keeps one editor's undo history on the server and offline; made by `connect`. */
export class UndoHistorySync {
  private readonly limits: UndoHistoryLimits
  private readonly saveDelayMs: number
  private readonly subscription: Disposable
  private timer: ReturnType<typeof setTimeout> | null = null
  /** Whether the history came from the server's answer (then a sent offline copy is older). */
  private loadedFromServer = false
  /** The editor made (or undid, or redid) a step of its own: a saved history no longer replaces it. */
  private ownSteps = false
  /** Changes not yet sent to the server. */
  private unsent = false
  /** The history came from IndexedDB and the server has not had it. */
  private offlineOnly = false
  /**
   * A save went to the server after the last request: the answer to that request is older
   * than what the server now holds, which is this editor's own history.
   */
  private savedSinceRequest = false
  /** Loading a saved history: its change event is not a step of the editor's. */
  private loading = false
  private destroyed = false

  constructor(
    private readonly editor: TextEditor,
    private readonly provider: WebsocketProvider,
    private readonly persistence: IndexeddbPersistence | null,
    /** The user id sent with requests (the server uses the token's user when it has one). */
    private readonly user: string,
    options: UndoHistoryOptions = {},
    /** Told how many steps a saved history brought, when one becomes the editor's. */
    private readonly restored: (steps: number) => void = () => {},
  ) {
    this.limits = {
      maxSteps: options.maxSteps ?? DEFAULT_UNDO_HISTORY_LIMITS.maxSteps,
      maxBytes: options.maxBytes ?? DEFAULT_UNDO_HISTORY_LIMITS.maxBytes,
    }
    this.saveDelayMs = options.saveDelayMs ?? 500
    this.subscription = editor.onDidChangeUndoHistory(() => this.changed())
    if (persistence !== null) void this.loadOffline(persistence)
  }

  /**
   * The socket opened: asks for the user's history, and sends what changed while it was
   * closed. The answer cannot undo a save sent after the request: it is taken only while the
   * editor has no steps of its own and no save went out since the request.
   */
  connected(): void {
    this.savedSinceRequest = false
    this.send(undoHistoryRequest(this.user))
    if (this.unsent) this.save()
  }

  /** The server's answer to a request. */
  received(message: UndoHistoryMessage): void {
    if (message.kind !== UndoHistoryKind.answer) return
    const { history } = message
    const current = () => !this.ownSteps && !this.offlineOnly && !this.savedSinceRequest
    if (history !== null && current()) {
      void this.whenProviderSynced().then(() => {
        if (current() && !this.destroyed && this.load(history)) this.loadedFromServer = true
      })
    }
  }

  /** Saves the history now (to the server when connected, and offline), not after the delay. */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.save()
  }

  destroy(): void {
    if (this.destroyed) return
    this.flush()
    this.destroyed = true
    this.subscription.dispose()
  }

  private changed(): void {
    if (this.loading || this.destroyed) return
    this.ownSteps = true
    this.unsent = true
    if (this.timer === null) {
      this.timer = setTimeout(() => {
        this.timer = null
        this.save()
      }, this.saveDelayMs)
    }
  }

  private save(): void {
    if (this.destroyed || !this.unsent) return
    const saved = this.editor.getUndoHistoryState(this.limits.maxSteps)
    const bytes = encodeUndoHistory(trimUndoHistory(saved, this.limits))
    const sent = this.send(undoHistorySave(this.user, bytes))
    if (sent) {
      this.unsent = false
      this.offlineOnly = false
      this.savedSinceRequest = true
    }
    const copy: StoredCopy = { history: bytes, sent }
    void this.persistence?.set(this.key(), copy as never).catch(() => {})
  }

  private send(message: Uint8Array): boolean {
    const ws = this.provider.ws
    if (!this.provider.wsconnected || ws === null || ws.readyState !== OPEN) return false
    ws.send(message)
    return true
  }

  /** Takes the copy in IndexedDB once the document has loaded from there. */
  private async loadOffline(persistence: IndexeddbPersistence): Promise<void> {
    let copy: unknown
    try {
      await persistence.whenSynced
      copy = await persistence.get(this.key())
    } catch {
      return
    }
    if (this.destroyed || this.ownSteps || !isStoredCopy(copy)) return
    // A copy the server had is never newer than the server's own: a copy written as the last
    // page went away may not have reached IndexedDB, while the save reached the server.
    if (copy.sent && this.loadedFromServer) return
    if (!this.load(copy.history)) return
    if (!copy.sent) {
      this.offlineOnly = true
      this.unsent = true
      this.save()
    }
  }

  private load(bytes: Uint8Array): boolean {
    let history: ReturnType<typeof decodeUndoHistory>
    try {
      history = decodeUndoHistory(bytes)
    } catch {
      return false
    }
    this.loading = true
    let steps: number
    try {
      steps = this.editor.restoreUndoHistory(history)
    } finally {
      this.loading = false
    }
    this.restored(steps)
    return true
  }

  private whenProviderSynced(): Promise<void> {
    if (this.provider.synced) return Promise.resolve()
    return new Promise((resolve) => {
      const onSync = (synced: boolean) => {
        if (!synced) return
        this.provider.off('sync', onSync)
        resolve()
      }
      this.provider.on('sync', onSync)
    })
  }

  private key(): string {
    return `undo-history:${this.user}`
  }
}

const isStoredCopy = (value: unknown): value is StoredCopy =>
  typeof value === 'object' &&
  value !== null &&
  (value as StoredCopy).history instanceof Uint8Array &&
  typeof (value as StoredCopy).sent === 'boolean'
