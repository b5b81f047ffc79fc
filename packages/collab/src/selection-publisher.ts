/**
 * Publishes an editor's selections into the local awareness state: `selections` for all of
 * them and `cursor` for the primary one (the editor's last selection), coalesced so that a
 * burst of changes (typing, a drag, a multi-cursor edit) costs one awareness update per
 * animation frame or per `throttleMs`, and nothing is sent when nothing changed.
 */
import type { TextBuffer } from '@tandem/buffer'
import type { Selection, TextEditor } from '@tandem/editor'
import {
  type AwarenessSelection,
  MAX_REMOTE_SELECTIONS,
  relativePositionToJSON,
} from '@tandem/protocol'
import { CompositeDisposable } from '@tandem/text'
import type { Awareness } from 'y-protocols/awareness'
import type { CollabUser } from './peers.js'
import { checkThrottle, runSoon } from './soon.js'

/** The awareness fields a publisher writes. */
interface PublishedFields {
  readonly cursor: AwarenessSelection | null
  readonly selections: readonly AwarenessSelection[] | null
}

/**
 * The selection in awareness form: anchor is where it started, head is its caret. A selection
 * is published with its marker's own relative positions, except an empty one: its caret is
 * tied to the character after it, as y-codemirror.next ties carets. That position stays the
 * same while its user types or deletes backwards, so typing sends no awareness traffic at all;
 * tied to the character before (as the marker is), it would change with every keystroke. The
 * two differ only when another peer inserts exactly at the caret, and the edit that does so
 * makes this publisher send the caret again.
 */
const awarenessSelection = (selection: Selection, buffer: TextBuffer): AwarenessSelection => {
  const marker = selection.marker.bufferMarker
  if (marker.getRange().isEmpty()) {
    const caret = relativePositionToJSON(
      buffer.relativePositionForPosition(marker.getHeadPosition()),
    )
    return { anchor: caret, head: caret }
  }
  const { start, end } = marker.getRelativeRange()
  const [anchor, head] = marker.isReversed() ? [end, start] : [start, end]
  return { anchor: relativePositionToJSON(anchor), head: relativePositionToJSON(head) }
}

/** How often a publisher may send; see `SelectionPublisher`'s constructor. */
export interface PublishTiming {
  /**
   * Milliseconds between two updates at most one of which is sent. Without it, one update
   * per animation frame in a browser (`requestAnimationFrame`), else per 16 ms. `0` sends at
   * the end of the current task.
   */
  readonly throttleMs?: number
}

/** Options of a `SelectionPublisher`. */
export interface SelectionPublisherOptions extends PublishTiming {
  /**
   * Publishes only `user` until `release()` is called (default false): a client that asks a
   * server for its last session must not publish where its editor opened before that.
   */
  readonly holdSelections?: boolean
}

/**
 * `count` of `selections` (in buffer order, more than `count` besides `primary`) other than
 * `primary`: those nearest it.
 * Peers show no more than `MAX_REMOTE_SELECTIONS` of one peer, and servers bound the size of a
 * state, so with tens of thousands of cursors the ones around the primary are published.
 */
const nearest = (
  selections: readonly Selection[],
  primary: Selection,
  count: number,
): Selection[] => {
  const at = selections.indexOf(primary)
  const others = selections.length - 1
  const start = Math.min(Math.max(0, at - Math.floor(count / 2)), others - count)
  const before = selections.slice(start, at)
  const after = selections.slice(at + 1, at + 1 + (count - before.length))
  return [...before, ...after]
}

/**
 * Keeps the awareness `user`, `cursor` and `selections` fields in step with an editor.
 *
 * @example const publisher = new SelectionPublisher(editor, awareness, { name: 'Ada', color: '#d33' })
 */
export class SelectionPublisher {
  private readonly subscriptions = new CompositeDisposable()
  private scheduled: (() => void) | null = null
  private lastSent = ''
  private disposed = false
  private holding: boolean

  constructor(
    /** The editor whose selections are published. */
    readonly editor: TextEditor,
    /** The awareness whose local state is written. */
    readonly awareness: Awareness,
    /** Published as the `user` field. */
    readonly user: CollabUser,
    private readonly timing: SelectionPublisherOptions = {},
  ) {
    this.holding = timing.holdSelections === true
    checkThrottle(timing.throttleMs)
    const schedule = () => this.schedule()
    this.subscriptions.add(
      editor.onDidChangeSelectionRange(schedule),
      editor.onDidAddSelection(schedule),
      editor.onDidRemoveSelection(schedule),
      // Edits renew relative positions even where a selection's range stays the same.
      editor.getBuffer().onDidChange(schedule),
      editor.onDidDestroy(() => this.dispose()),
    )
    this.awareness.setLocalStateField('user', { ...user })
    this.flush()
  }

  /**
   * Sends the current selections now if they differ from what was last sent, instead of
   * waiting for the next frame. Call it outside a transaction.
   */
  flush(): void {
    this.cancelScheduled()
    if (this.disposed || this.holding) return
    const last = this.editor.getLastSelection()
    const buffer = this.editor.getBuffer()
    const published = this.othersToPublish(last).map((selection) =>
      awarenessSelection(selection, buffer),
    )
    const primary = awarenessSelection(last, buffer)
    published.push(primary)
    this.send({ cursor: primary, selections: published })
  }

  /** The selections other than `primary` to publish, in the editor's order while they fit. */
  private othersToPublish(primary: Selection): Selection[] {
    const all = this.editor.getSelections()
    const count = MAX_REMOTE_SELECTIONS - 1
    if (all.length - 1 <= count) return all.filter((selection) => selection !== primary)
    return nearest(this.editor.getSelectionsOrderedByBufferPosition(), primary, count)
  }

  /**
   * Clears `cursor` and `selections` from the awareness state and stops following the editor.
   * A publish still waiting for its frame is sent first, so the last selections peers (and a
   * server keeping sessions) saw are the editor's last ones.
   */
  dispose(): void {
    if (this.disposed) return
    if (this.scheduled !== null && !this.editor.isDestroyed()) this.flush()
    this.cancelScheduled()
    this.subscriptions.dispose()
    if (this.awareness.getLocalState() !== null) this.send({ cursor: null, selections: null })
    this.disposed = true
  }

  /** Starts publishing selections, held since construction by `holdSelections`. */
  release(): void {
    if (!this.holding) return
    this.holding = false
    this.flush()
  }

  /** Whether `dispose` was called. */
  isDisposed(): boolean {
    return this.disposed
  }

  private send(fields: PublishedFields): void {
    const json = JSON.stringify(fields)
    if (json === this.lastSent) return
    this.lastSent = json
    // One state change, so peers get one update with both fields.
    this.awareness.setLocalState({ ...(this.awareness.getLocalState() ?? {}), ...fields })
  }

  private schedule(): void {
    if (this.scheduled !== null || this.disposed) return
    this.scheduled = runSoon(() => {
      this.scheduled = null
      this.flush()
    }, this.timing.throttleMs)
  }

  private cancelScheduled(): void {
    this.scheduled?.()
    this.scheduled = null
  }
}
