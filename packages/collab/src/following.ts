/**
 * Following a peer: this editor's view keeps another peer's rows and primary caret in sight,
 * and scrolls as they scroll, until this user does something of their own.
 *
 * Each peer publishes the rows it has in sight as the awareness `viewport` field (relative
 * positions, so they mean the same text on every peer), and whom it follows as `following`, so
 * that a followed peer can list its followers. Collab does not know the DOM view: the view
 * comes in through `FollowViewport`, a small interface that `@tandem/view`'s `EditorView`
 * fits, which reports the rows in sight (and whether the user scrolled) and scrolls a row to
 * the top. The caret is kept in sight through the editor's own autoscroll requests, which
 * every view honours, so following works without a viewport too, by the caret alone (a peer
 * whose binding publishes no viewport, y-codemirror.next's for one, is followed that way).
 *
 * Only local actions stop following: an edit made here, a selection change made here, or the
 * user scrolling. Remote edits move the followed peer's text and keep it followed. A peer who
 * leaves stops it too, with that reason.
 */
import type { SelectionRangeChangeEvent, TextEditor } from '@tandem/editor'
import {
  type AwarenessViewport,
  readFollowing,
  readSelections,
  readViewport,
  relativePositionToJSON,
} from '@tandem/protocol'
import { CompositeDisposable, Disposable, Emitter, type Point, type Range } from '@tandem/text'
import type { Awareness } from 'y-protocols/awareness'
import type { PublishTiming } from './selection-publisher.js'
import { checkThrottle, runSoon } from './soon.js'

/**
 * What following needs of the view showing the editor. `@tandem/view`'s `EditorView` has all
 * three; an application with a view of its own implements them over it.
 *
 * @example connection.attachViewport(view) // an EditorView
 */
export interface FollowViewport {
  /** The buffer range of the rows in sight: from the start of the first to the end of the last. */
  getVisibleBufferRange(): Range
  /**
   * Calls `callback` after the rows in sight changed, saying whether the user scrolled
   * (wheel, touch, scroll bar) rather than a program or the view itself.
   */
  onDidChangeVisibleRange(callback: (event: { readonly byUser: boolean }) => void): Disposable
  /** Scrolls so that the row of buffer position `position` is the first row in sight. */
  scrollBufferPositionToTop(position: Point): void
}

/**
 * Why following stopped: `unfollow()` was called, this user edited, changed a selection or
 * scrolled, or the followed peer left (or this client lost sight of it, going offline).
 *
 * @example connection.onDidChangeFollowing(({ reason }) => reason === 'peer-left' && notify('They left'))
 */
export type FollowStopReason = 'unfollow' | 'edit' | 'selection' | 'scroll' | 'peer-left'

/**
 * What `onDidChangeFollowing` reports: whom this client follows now, whom it followed before,
 * and why that stopped (null when following started, or moved to another peer).
 *
 * @example { following: null, previous: 42, reason: 'peer-left' }
 */
export interface FollowingChangeEvent {
  /** The client id followed now, or null. */
  readonly following: number | null
  /** The client id followed before, or null. */
  readonly previous: number | null
  /** Why following `previous` stopped; null when following started or moved to another peer. */
  readonly reason: FollowStopReason | null
}

interface FollowingEvents {
  'did-change-following': FollowingChangeEvent
  'did-change-followers': readonly number[]
}

/** What awareness reports in a `change` event. */
interface AwarenessChanges {
  readonly added: readonly number[]
  readonly updated: readonly number[]
  readonly removed: readonly number[]
}

/**
 * How often the rows in sight are published at most, in milliseconds, unless `throttleMs` says
 * otherwise: ten updates a second follow a scroll closely enough, and keep a peer scrolling
 * while it drags a selection well within a server's rate of messages.
 */
const VIEWPORT_MS = 100

const sameIds = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((id, index) => id === b[index])

/**
 * Follows other peers of `awareness` in `editor`, publishes this client's viewport (once a
 * view is attached) and whom it follows, and lists who follows it.
 *
 * @example const following = new PeerFollowing(editor, awareness); following.follow(42)
 */
export class PeerFollowing {
  private readonly subscriptions = new CompositeDisposable()
  private readonly emitter = new Emitter<FollowingEvents>()
  private followed: number | null = null
  private followerIds: number[] = []
  private viewport: FollowViewport | null = null
  private viewportSubscription: Disposable | null = null
  private cancelPublish: (() => void) | null = null
  private cancelKeep: (() => void) | null = null
  private lastViewport = 'null'
  /** Whether a transaction of the document is under way: selection changes then come from edits. */
  private inTransaction = false
  private disposed = false
  private readonly onAwarenessChange = (changes: AwarenessChanges) => this.awarenessChanged(changes)
  private readonly onBeforeTransactions = () => {
    this.inTransaction = true
  }
  private readonly onAfterTransactions = () => {
    this.inTransaction = false
  }

  constructor(
    /** The editor whose view follows other peers. */
    readonly editor: TextEditor,
    /** Where the peers' viewports, carets and `following` fields are read and written. */
    readonly awareness: Awareness,
    private readonly timing: PublishTiming = {},
  ) {
    checkThrottle(timing.throttleMs)
    const doc = awareness.doc
    awareness.on('change', this.onAwarenessChange)
    doc.on('beforeAllTransactions', this.onBeforeTransactions)
    doc.on('afterAllTransactions', this.onAfterTransactions)
    const selectionChanged = () => {
      // Edits move selections inside their transaction; changes outside one are the user's.
      if (!this.inTransaction) this.stop('selection')
    }
    const rangeChanged = ({ oldBufferRange, newBufferRange }: SelectionRangeChangeEvent) => {
      // A selection that moved on screen only (soft wrap at a new width) was not moved.
      if (!oldBufferRange.isEqual(newBufferRange)) selectionChanged()
    }
    this.subscriptions.add(
      editor.getBuffer().onDidChange((event) => {
        if (event.local) this.stop('edit')
        else this.scheduleKeepInSight()
      }),
      editor.onDidChangeSelectionRange(rangeChanged),
      editor.onDidAddSelection(selectionChanged),
      editor.onDidRemoveSelection(selectionChanged),
      editor.onDidDestroy(() => this.dispose()),
      new Disposable(() => {
        awareness.off('change', this.onAwarenessChange)
        doc.off('beforeAllTransactions', this.onBeforeTransactions)
        doc.off('afterAllTransactions', this.onAfterTransactions)
      }),
    )
    this.followerIds = this.readFollowers()
  }

  /** The client id of the peer followed, or null. */
  get following(): number | null {
    return this.followed
  }

  /**
   * Starts following the peer with awareness client id `clientId` (moving from the one
   * followed before, if any): its viewport's first row and its primary caret are brought into
   * sight now and whenever they move. A TypeError for a non-integer, a RangeError for this
   * client itself or a client id the awareness does not know.
   *
   * @example connection.follow(connection.getRemoteCursors()[0].clientId)
   */
  follow(clientId: number): void {
    this.assertAlive('follow')
    if (typeof clientId !== 'number' || !Number.isInteger(clientId)) {
      throw new TypeError(`follow needs an awareness client id, got ${String(clientId)}`)
    }
    if (clientId === this.awareness.clientID) {
      throw new RangeError('follow: a client cannot follow itself')
    }
    if (!this.awareness.getStates().has(clientId)) {
      throw new RangeError(`follow: no peer with client id ${clientId} is here`)
    }
    if (clientId === this.followed) return
    const previous = this.followed
    this.followed = clientId
    this.publishField('following', clientId)
    this.emitter.emit('did-change-following', { following: clientId, previous, reason: null })
    this.keepInSight()
  }

  /** Stops following (reason `unfollow`); nothing happens when no peer is followed. */
  unfollow(): void {
    this.stop('unfollow')
  }

  /**
   * The client ids of the peers that follow this client, in increasing order.
   *
   * @example connection.followers() // => [42]
   */
  followers(): number[] {
    return [...this.followerIds]
  }

  /** Calls `callback` when this client starts, moves or stops following, with why it stopped. */
  onDidChangeFollowing(callback: (event: FollowingChangeEvent) => void): Disposable {
    return this.emitter.on('did-change-following', callback)
  }

  /** Calls `callback` with the followers' client ids whenever they change. */
  onDidChangeFollowers(callback: (followers: readonly number[]) => void): Disposable {
    return this.emitter.on('did-change-followers', callback)
  }

  /**
   * Takes the rows in sight from `viewport` (publishing them as the awareness `viewport`
   * field, at most every 100 ms, or every `throttleMs` when given), scrolls it while following, and
   * stops following when its user scrolls. Replaces a viewport attached before; disposing the
   * returned Disposable detaches it and clears the field.
   *
   * @example const attached = connection.attachViewport(view)
   */
  attachViewport(viewport: FollowViewport): Disposable {
    this.assertAlive('attachViewport')
    if (
      typeof viewport?.getVisibleBufferRange !== 'function' ||
      typeof viewport.onDidChangeVisibleRange !== 'function' ||
      typeof viewport.scrollBufferPositionToTop !== 'function'
    ) {
      throw new TypeError(
        'attachViewport needs getVisibleBufferRange, onDidChangeVisibleRange and scrollBufferPositionToTop',
      )
    }
    this.detachViewport()
    this.viewport = viewport
    this.viewportSubscription = viewport.onDidChangeVisibleRange(({ byUser }) => {
      if (byUser) this.stop('scroll')
      this.schedulePublish()
    })
    this.publishViewport()
    return new Disposable(() => {
      if (this.viewport === viewport) this.detachViewport()
    })
  }

  /** Stops following, clears `viewport` and `following` from the awareness state. Safe twice. */
  dispose(): void {
    if (this.disposed) return
    this.detachViewport()
    this.cancelKeep?.()
    this.cancelKeep = null
    if (this.followed !== null) {
      this.followed = null
      this.publishField('following', null)
    }
    this.subscriptions.dispose()
    this.emitter.dispose()
    this.disposed = true
  }

  private detachViewport(): void {
    if (this.viewport === null) return
    this.cancelPublish?.()
    this.cancelPublish = null
    this.viewportSubscription?.dispose()
    this.viewportSubscription = null
    this.viewport = null
    this.sendViewport(null)
  }

  private stop(reason: FollowStopReason): void {
    const previous = this.followed
    if (previous === null || this.disposed) return
    this.followed = null
    this.cancelKeep?.()
    this.cancelKeep = null
    this.publishField('following', null)
    this.emitter.emit('did-change-following', { following: null, previous, reason })
  }

  private awarenessChanged({ added, updated, removed }: AwarenessChanges): void {
    if (this.disposed) return
    const followed = this.followed
    if (followed !== null) {
      if (removed.includes(followed)) this.stop('peer-left')
      else if (updated.includes(followed) || added.includes(followed)) this.scheduleKeepInSight()
    }
    const followers = this.readFollowers()
    if (sameIds(followers, this.followerIds)) return
    this.followerIds = followers
    this.emitter.emit('did-change-followers', this.followers())
  }

  private readFollowers(): number[] {
    const self = this.awareness.clientID
    const followers: number[] = []
    for (const [clientId, state] of this.awareness.getStates()) {
      if (clientId !== self && readFollowing(state) === self) followers.push(clientId)
    }
    return followers.sort((a, b) => a - b)
  }

  private scheduleKeepInSight(): void {
    if (this.followed === null || this.cancelKeep !== null) return
    this.cancelKeep = runSoon(() => {
      this.cancelKeep = null
      this.keepInSight()
    }, this.timing.throttleMs)
  }

  /**
   * Brings the followed peer's first row in sight to the top, then its primary caret into
   * sight when the peer has it in sight too (or publishes no viewport). A peer who scrolled
   * away from their caret is looking at their rows, not at it; but when their rows do not fit
   * in this view, the caret among them wins.
   */
  private keepInSight(): void {
    const followed = this.followed
    if (followed === null || this.disposed || this.editor.isDestroyed()) return
    const state = this.awareness.getStates().get(followed)
    if (state === undefined) return
    const buffer = this.editor.getBuffer()
    const viewport = readViewport(state)
    const top = viewport === null ? null : buffer.positionForRelativePosition(viewport.start)
    const bottom = viewport === null ? null : buffer.positionForRelativePosition(viewport.end)
    if (top !== null && this.viewport !== null) this.viewport.scrollBufferPositionToTop(top)
    const primary = readSelections(state).at(-1)
    const caret = primary === undefined ? null : buffer.positionForRelativePosition(primary.head)
    if (caret === null) return
    const caretInTheirSight =
      top === null || bottom === null || (caret.compare(top) >= 0 && caret.compare(bottom) <= 0)
    if (caretInTheirSight) this.editor.scrollToBufferPosition(caret)
  }

  private schedulePublish(): void {
    if (this.cancelPublish !== null || this.disposed) return
    this.cancelPublish = runSoon(() => {
      this.cancelPublish = null
      this.publishViewport()
    }, this.timing.throttleMs ?? VIEWPORT_MS)
  }

  private publishViewport(): void {
    const viewport = this.viewport
    if (viewport === null || this.editor.isDestroyed()) return
    const buffer = this.editor.getBuffer()
    const { start, end } = viewport.getVisibleBufferRange()
    this.sendViewport({
      // The top row's first character and the bottom row's last: typing inside the rows in
      // sight leaves both alone, so it sends nothing.
      start: relativePositionToJSON(buffer.relativePositionForPosition(start, 0)),
      end: relativePositionToJSON(buffer.relativePositionForPosition(end, -1)),
    })
  }

  private sendViewport(viewport: AwarenessViewport | null): void {
    const json = JSON.stringify(viewport)
    if (json === this.lastViewport) return
    this.lastViewport = json
    this.publishField('viewport', viewport)
  }

  private publishField(field: 'viewport' | 'following', value: unknown): void {
    // A destroyed awareness (the connection is gone) has no local state to write.
    if (this.awareness.getLocalState() === null) return
    this.awareness.setLocalStateField(field, value)
  }

  private assertAlive(method: string): void {
    if (this.disposed) throw new Error(`${method}: following was disposed with its binding`)
  }
}
