import type { Range } from '@tandem/text'

/** One change to the buffer's text: `oldText` at `oldRange` became `newText` at `newRange`. */
export interface BufferChange {
  /** Where the replaced text was, in the coordinates before the transaction. */
  readonly oldRange: Range
  /** Where the new text is, in the coordinates after the transaction. */
  readonly newRange: Range
  /** The text that was replaced (empty for an insertion). */
  readonly oldText: string
  /** The text put in its place (empty for a deletion). */
  readonly newText: string
}

/**
 * What one transaction did to the text, emitted once after it. `changes` are sorted, never
 * touch each other, and can be applied in order to the old text. `oldRange`/`newRange` span
 * all of them (for listeners that only want to know which rows to redraw).
 *
 * @example buffer.onDidChange(({ changes, remote }) => remote && highlight(changes))
 */
export interface BufferChangeEvent {
  /** Every change of the transaction, sorted, in the order they apply. */
  readonly changes: readonly BufferChange[]
  /** The range spanned by all changes, before the transaction. */
  readonly oldRange: Range
  /** The range spanned by all changes, after the transaction. */
  readonly newRange: Range
  /** True when this buffer (or its undo history) made the change. */
  readonly local: boolean
  /** True when the change came from elsewhere: another peer, or another binding of the text. */
  readonly remote: boolean
  /** The Yjs transaction origin. */
  readonly origin: unknown
}

/**
 * The changes made since the buffer last stopped changing, emitted after a quiet period.
 *
 * @example buffer.onDidStopChanging(({ changes }) => save(changes.length))
 */
export interface BufferStoppedChangingEvent {
  /** The changes merged since the last event, sorted, in the order they apply. */
  readonly changes: readonly BufferChange[]
}

/**
 * Follows the text edit by edit, as each is made, so that a layout built on the buffer (the
 * display layer) is right at every moment of a transaction, as Atom's is. Local edits arrive
 * one by one while the transaction runs; another peer's arrive as one sorted batch when its
 * transaction is taken in.
 *
 * @example buffer.followEdits({ textDidChange: relayout, textDidReset: layOutAll, transactionDidEnd: flush })
 */
export interface EditFollower {
  /** Edits just applied, sorted; `oldRange`s in the text before them, `newRange`s after. */
  textDidChange(changes: readonly BufferChange[]): void
  /** The whole text was read again (the Y.Text changed behind the buffer's back). */
  textDidReset(): void
  /** The transaction that made the edits is over; the buffer is about to report it. */
  transactionDidEnd(): void
}
