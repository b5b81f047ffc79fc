/**
 * Other peers' carets and selections in an editor: for every other client of an awareness
 * that shows a selection, markers on a layer of their own and decorations for views to draw
 * (`cursor` for each caret, `highlight` for each non-empty selection), in the peer's colors.
 *
 * The peer's relative positions are the truth; markers only show where they resolve now. They
 * are resolved when the peer's state changes, and after a change to the text, local or
 * remote, for the peers with a marker the change touched (O(log n) each, through the
 * buffer's anchoring index): a marker the change did not touch has moved with the text, just
 * as its relative positions would. A position naming text that has not arrived yet is kept
 * and resolved once it has.
 */

import type { BufferChangeEvent } from '@tandem/buffer'
import type { Decoration, DisplayMarker, DisplayMarkerLayer, TextEditor } from '@tandem/editor'
import { type RelativeSelection, readSelections, readUser } from '@tandem/protocol'
import { CompositeDisposable, type Disposable, Emitter, Range } from '@tandem/text'
import type { Awareness } from 'y-protocols/awareness'
import type * as Y from 'yjs'
import { type CollabUser, isSameUser, type RemoteCursor, type RemoteUser } from './peers.js'

/** What awareness reports in a `change` event. */
interface AwarenessChanges {
  readonly added: readonly number[]
  readonly updated: readonly number[]
  readonly removed: readonly number[]
}

/** One shown selection of a peer. */
interface ShownSelection {
  readonly marker: DisplayMarker
  readonly caret: Decoration
  highlight: Decoration | null
}

interface Peer {
  readonly clientId: number
  user: RemoteUser
  ownTab: boolean
  /** The `user`, `selections` and `cursor` fields as last seen, to skip unchanged states. */
  stateKey: string
  selections: RelativeSelection[]
  shown: ShownSelection[]
  /** Whether some of its positions name text this document does not have yet. */
  unresolved: boolean
  /** The `selections` and `cursor` fields as last seen: a change is the peer's activity. */
  selectionKey: string
  /** When the peer last moved or typed (`Date.now()` when its selections last changed). */
  activeAt: number
}

/** Decoration classes, for views and style sheets. */
export const REMOTE_CARET_CLASS = 'remote-cursor'
/** Class of a remote selection's highlight decoration. */
export const REMOTE_SELECTION_CLASS = 'remote-selection'

/**
 * Shows the other clients of `awareness` in `editor`, until disposed.
 *
 * Each caret decoration has the properties `clientId`, `name`, `color`, `ownTab`, `primary`
 * (the peer's last selection, where views put the name) and `activeAt` (`Date.now()` when
 * the peer last moved or typed); each selection highlight has `clientId`, `color`
 * (`colorLight` when the user has one) and `userColor` (the user's `color`).
 *
 * @example const remote = new RemoteCursors(editor, awareness, { name: 'Ada', color: '#d33' })
 */
export class RemoteCursors {
  private readonly layer: DisplayMarkerLayer
  private readonly peers = new Map<number, Peer>()
  /** The peer each marker shows, by buffer marker id. */
  private readonly peerByMarker = new Map<number, Peer>()
  private readonly subscriptions = new CompositeDisposable()
  private readonly emitter = new Emitter<{ 'did-change': undefined }>()
  private readonly onAwarenessChange = (changes: AwarenessChanges) => this.awarenessChanged(changes)
  private readonly onTransaction = (transaction: Y.Transaction) => this.transacted(transaction)
  private disposed = false

  constructor(
    /** The editor the remote carets are shown in. */
    readonly editor: TextEditor,
    /** Where the other clients' states are read. */
    readonly awareness: Awareness,
    /** This client's user: its other tabs are told apart from other people. */
    readonly localUser: CollabUser,
  ) {
    this.layer = editor.addMarkerLayer({ role: 'remote-cursors' })
    awareness.on('change', this.onAwarenessChange)
    awareness.doc.on('afterTransaction', this.onTransaction)
    this.subscriptions.add(
      editor.getBuffer().onDidChange((event) => this.textChanged(event)),
      editor.onDidDestroy(() => this.dispose()),
    )
    this.awarenessChanged({ added: [...awareness.getStates().keys()], updated: [], removed: [] })
  }

  /**
   * The peers shown, by client id: user, whether it is this user's other tab, and the
   * selections where they are now (the last one is the peer's primary selection).
   */
  getRemoteCursors(): RemoteCursor[] {
    const cursors: RemoteCursor[] = []
    for (const peer of this.peers.values()) {
      if (peer.shown.length === 0) continue
      cursors.push({
        clientId: peer.clientId,
        user: peer.user,
        ownTab: peer.ownTab,
        selections: peer.shown.map(({ marker }) => ({
          range: marker.getBufferRange(),
          reversed: marker.isReversed(),
        })),
      })
    }
    return cursors
  }

  /** The layer holding the peers' markers (for views that draw the layer directly). */
  getMarkerLayer(): DisplayMarkerLayer {
    return this.layer
  }

  /** Calls `callback` after the remote carets or selections shown changed. */
  onDidChange(callback: () => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  /** Removes every remote marker and decoration and stops listening. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.awareness.off('change', this.onAwarenessChange)
    this.awareness.doc.off('afterTransaction', this.onTransaction)
    this.subscriptions.dispose()
    for (const peer of this.peers.values()) this.hide(peer, 0)
    this.peers.clear()
    this.layer.destroy()
    this.emitter.dispose()
  }

  private awarenessChanged({ added, updated, removed }: AwarenessChanges): void {
    if (this.disposed) return
    let changed = false
    for (const clientId of removed) changed = this.removePeer(clientId) || changed
    for (const clientId of [...added, ...updated]) {
      if (clientId === this.awareness.clientID) continue
      changed = this.updatePeer(clientId) || changed
    }
    if (changed) this.emitter.emit('did-change')
  }

  private updatePeer(clientId: number): boolean {
    const state = this.awareness.getStates().get(clientId)
    if (state === undefined) return this.removePeer(clientId)
    const selectionKey = JSON.stringify([state.selections ?? null, state.cursor ?? null])
    const stateKey = JSON.stringify([state.user ?? null, selectionKey])
    let peer = this.peers.get(clientId)
    if (peer !== undefined && peer.stateKey === stateKey) return false
    const user = readUser(state, clientId)
    if (peer === undefined) {
      peer = {
        clientId,
        user,
        ownTab: false,
        stateKey,
        selections: [],
        shown: [],
        unresolved: false,
        selectionKey: '',
        activeAt: 0,
      }
      this.peers.set(clientId, peer)
    } else if (JSON.stringify(peer.user) !== JSON.stringify(user)) {
      // New colors or name: decorations are made again with them.
      this.hide(peer, 0)
    }
    peer.user = user
    peer.ownTab = isSameUser(this.localUser, user)
    peer.stateKey = stateKey
    if (peer.selectionKey !== selectionKey) {
      // Typing moves the caret too, so a change of selections is what activity is.
      peer.selectionKey = selectionKey
      peer.activeAt = Date.now()
    }
    peer.selections = readSelections(state)
    this.place(peer)
    this.updateActivity(peer)
    return true
  }

  private removePeer(clientId: number): boolean {
    const peer = this.peers.get(clientId)
    if (peer === undefined) return false
    this.hide(peer, 0)
    this.peers.delete(clientId)
    return true
  }

  /**
   * A peer whose clock a remote transaction advanced inserted text: it is active. (Typing
   * leaves a caret's published position alone, so awareness alone does not tell.)
   */
  private transacted(transaction: Y.Transaction): void {
    if (transaction.local || this.disposed) return
    for (const [clientId, clock] of transaction.afterState) {
      if (clock <= (transaction.beforeState.get(clientId) ?? 0)) continue
      const peer = this.peers.get(clientId)
      if (peer !== undefined) this.markActive(peer)
    }
  }

  private markActive(peer: Peer): void {
    peer.activeAt = Date.now()
    this.updateActivity(peer)
  }

  /** Resolves again the peers whose markers the changes touched, and those still waiting. */
  private textChanged({ changes, remote }: BufferChangeEvent): void {
    const touched = new Set<Peer>()
    const markers = this.layer.bufferLayer
    for (const { newRange, oldRange } of changes) {
      if (remote && newRange.isEmpty() && !oldRange.isEmpty()) this.deletedAt(newRange.start)
    }
    for (const { newRange } of changes) {
      for (const marker of markers.markersIntersectingRange(newRange)) {
        const peer = this.peerByMarker.get(marker.id)
        if (peer !== undefined) touched.add(peer)
      }
    }
    for (const peer of this.peers.values()) if (peer.unresolved) touched.add(peer)
    let changed = false
    for (const peer of touched) changed = this.place(peer) || changed
    if (changed) this.emitter.emit('did-change')
  }

  /**
   * A deletion carries no author, so the peers whose caret sits where text was deleted count
   * as the ones who deleted it.
   */
  private deletedAt(position: Range['start']): void {
    for (const peer of this.peers.values()) {
      const primary = peer.shown[peer.shown.length - 1]
      if (
        primary?.marker.getBufferRange().isEmpty() &&
        primary.marker.getHeadBufferPosition().isEqual(position)
      ) {
        this.markActive(peer)
      }
    }
  }

  /**
   * Moves the peer's markers to where its relative positions resolve, making or removing
   * markers as its selection count changed. Returns whether anything shown changed.
   */
  private place(peer: Peer): boolean {
    const buffer = this.editor.getBuffer()
    let unresolved = false
    let changed = false
    let shownCount = 0
    for (const selection of peer.selections) {
      const anchor = buffer.positionForRelativePosition(selection.anchor)
      const head = buffer.positionForRelativePosition(selection.head)
      if (anchor === null || head === null) {
        unresolved = true
        continue
      }
      const reversed = head.isLessThan(anchor)
      const range = reversed ? new Range(head, anchor) : new Range(anchor, head)
      const existing = peer.shown[shownCount]
      if (existing === undefined) {
        peer.shown.push(this.show(peer, range, reversed))
        changed = true
      } else if (
        !existing.marker.getBufferRange().isEqual(range) ||
        existing.marker.isReversed() !== reversed
      ) {
        existing.marker.setBufferRange(range, { reversed })
        this.updateHighlight(peer, existing, range)
        changed = true
      }
      shownCount++
    }
    if (shownCount < peer.shown.length) {
      this.hide(peer, shownCount)
      changed = true
    }
    peer.unresolved = unresolved
    if (changed) this.updatePrimary(peer)
    return changed
  }

  private show(peer: Peer, range: Range, reversed: boolean): ShownSelection {
    const marker = this.layer.markBufferRange(range, { reversed, invalidate: 'never' })
    const caret = this.editor.decorateMarker(marker, {
      type: 'cursor',
      class: peer.ownTab ? `${REMOTE_CARET_CLASS} own-tab` : REMOTE_CARET_CLASS,
      clientId: peer.clientId,
      name: peer.user.name,
      color: peer.user.color,
      agent: peer.user.agent === true,
      ownTab: peer.ownTab,
      primary: false,
      activeAt: peer.activeAt,
    })
    const shown: ShownSelection = { marker, caret, highlight: null }
    this.peerByMarker.set(marker.bufferMarker.id, peer)
    this.updateHighlight(peer, shown, range)
    return shown
  }

  /** Marks the last shown selection as the peer's primary one (views put the name label there). */
  private updatePrimary(peer: Peer): void {
    peer.shown.forEach(({ caret }, i) => {
      const primary = i === peer.shown.length - 1
      if (caret.getProperties().primary !== primary) {
        caret.setProperties({ ...caret.getProperties(), primary })
      }
    })
  }

  /** Tells views when the peer last moved or typed (they fade its name and dim an idle caret). */
  private updateActivity(peer: Peer): void {
    for (const { caret } of peer.shown) {
      if (caret.getProperties().activeAt !== peer.activeAt) {
        caret.setProperties({ ...caret.getProperties(), activeAt: peer.activeAt })
      }
    }
  }

  private updateHighlight(peer: Peer, shown: ShownSelection, range: Range): void {
    if (range.isEmpty()) {
      shown.highlight?.destroy()
      shown.highlight = null
    } else if (shown.highlight === null) {
      shown.highlight = this.editor.decorateMarker(shown.marker, {
        type: 'highlight',
        class: peer.ownTab ? `${REMOTE_SELECTION_CLASS} own-tab` : REMOTE_SELECTION_CLASS,
        clientId: peer.clientId,
        color: peer.user.colorLight ?? peer.user.color,
        userColor: peer.user.color,
      })
    }
  }

  /** Removes the peer's shown selections from `from` on. */
  private hide(peer: Peer, from: number): void {
    for (const { marker } of peer.shown.splice(from)) {
      this.peerByMarker.delete(marker.bufferMarker.id)
      marker.destroy()
    }
  }
}
