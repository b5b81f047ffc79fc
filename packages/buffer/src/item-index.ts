import * as Y from 'yjs'
import { ClockIndex } from './clock-index.js'
import { type Span, SpanTree } from './span-tree.js'
import {
  followRedone,
  forEachDeletedRun,
  forEachItemMadeIn,
  forEachTextItem,
  isMadeIn,
  isRootNamed,
  isVisibleText,
  itemClient,
  itemClock,
  itemLength,
  itemText,
  leftItem,
  ownerId,
  relativePosition,
  rootName,
  type TextItem,
  textOfIds,
} from './yjs-internals.js'

/**
 * One change of a transaction, in UTF-16 offsets: the old text [oldStart, oldEnd) became
 * `text`, which now occupies [newStart, newEnd). Changes are sorted and never touch each other.
 */
export interface TextChange {
  /** Start of the replaced text, as an offset before the transaction. */
  oldStart: number
  /** End of the replaced text, as an offset before the transaction. */
  oldEnd: number
  /** Start of the inserted text, as an offset after the transaction. */
  newStart: number
  /** End of the inserted text, as an offset after the transaction. */
  newEnd: number
  /** The inserted text (empty for a pure deletion). */
  text: string
  /** The text that was replaced (empty for a pure insertion). */
  oldText: string
}

/** A local edit noted but not yet placed in the tree (see `noteLocalEdit`). */
interface PendingEdit {
  offset: number
  deleted: number
  client: number
  clock: number
  length: number
}

interface ChangedSpan {
  span: Span
  text: string
  oldText: string
  offset: number
  oldOffset: number
}

/**
 * Maps between a Y.Text's items and character offsets in O(log n).
 *
 * Kept in step with the text by `ingest`, which reads what a transaction inserted
 * (`beforeState`..`afterState`) and deleted (`deleteSet`) and returns the changes as offsets.
 * That is what Y.TextEvent's `delta` gives too, but the delta walks every item of the text;
 * this never does. Relative positions resolve through the same tree, with Yjs's rules.
 */
export class ItemIndex {
  private readonly tree = new SpanTree()
  private readonly clocks = new ClockIndex()
  private pending: PendingEdit | null = null
  /** The name the document gives the text, when it is a root type (looked up once). */
  private rootName: string | null = null

  constructor(
    /** The text whose items are indexed. */
    readonly ytext: Y.Text,
  ) {
    this.rebuild()
  }

  /** Visible length of the text. */
  get length(): number {
    const p = this.pending
    return p === null ? this.tree.size : this.tree.size + p.length - p.deleted
  }

  /** Reads every item of the text again (O(n)); used once when binding to a document. */
  rebuild(): void {
    this.pending = null
    this.clocks.clear()
    const spans: Span[] = []
    forEachTextItem(this.ytext, (client, clock, length, visible) => {
      const span = this.tree.createSpan(client, clock, length, visible)
      spans.push(span)
      this.clocks.add(span)
    })
    this.tree.reset(spans)
  }

  /**
   * Takes in a transaction that changed the text and returns its changes, sorted, with the
   * text each one inserted. Must be called for every such transaction, in order (from an
   * observer of the text).
   */
  ingest(transaction: Y.Transaction): TextChange[] {
    this.flush()
    const changed: ChangedSpan[] = []
    this.placeInsertedItems(transaction, changed)
    this.hideDeletedItems(transaction, changed)
    if (changed.length === 0) return []
    for (const c of changed) {
      const offsets = this.tree.offsetsOf(c.span)
      c.offset = offsets.offset
      c.oldOffset = offsets.oldOffset
    }
    if (changed.length > 1) {
      changed.sort((a, b) => a.offset - b.offset || a.oldOffset - b.oldOffset)
    }
    const changes = composeChanges(changed)
    for (const c of changed) this.tree.commit(c.span)
    for (const c of changed) this.mergeWithNeighbours(c.span)
    return changes
  }

  /**
   * Like `applyLocalEdit`, but placed lazily: a run of typing (each insertion right after the
   * previous one, with the ids that follow its ids) or of deleting (backspace, or delete
   * forward, next to the previous deletion) is joined into one edit and placed in the tree
   * when something reads what the run changed. Relative positions inside text still being
   * typed are answered without placing it.
   */
  noteLocalEdit(
    offset: number,
    deleted: number,
    client: number,
    clock: number,
    length: number,
  ): void {
    const p = this.pending
    if (p !== null) {
      if (
        deleted === 0 &&
        client === p.client &&
        offset === p.offset + p.length &&
        clock === p.clock + p.length
      ) {
        p.length += length
        return
      }
      if (length === 0 && p.length === 0) {
        if (offset + deleted === p.offset) {
          p.offset = offset
          p.deleted += deleted
          return
        }
        if (offset === p.offset) {
          p.deleted += deleted
          return
        }
      }
      this.flush()
    }
    this.pending = { offset, deleted, client, clock, length }
  }

  /**
   * Takes in one edit made on this document by index, without reading its transaction:
   * `deleted` characters removed at `offset`, then `length` characters inserted there as one
   * new item with id (`client`, `clock`). Equivalent to `ingest` of a transaction holding only
   * that edit, for a caller that knows so (the buffer checks the transaction's state vectors
   * and delete set first). As Yjs does, the new item goes after any deleted items at `offset`,
   * right before the next visible character.
   */
  applyLocalEdit(
    offset: number,
    deleted: number,
    client: number,
    clock: number,
    length: number,
  ): void {
    if (deleted > 0) this.hideRange(offset, deleted)
    if (length === 0) return
    let anchor: Span | null
    const found = this.tree.spanAt(offset)
    if (found === null) anchor = this.tree.last()
    else if (found.index > 0) {
      this.split(found.span, found.index)
      anchor = found.span
    } else anchor = this.tree.previous(found.span)
    const span = this.tree.createSpan(client, clock, length, true)
    this.tree.insertAfter(anchor, span)
    this.clocks.add(span)
    this.mergeWithNeighbours(span)
  }

  /**
   * The offset a relative position points to now, with Yjs's rules (following redone items;
   * a deleted item resolves to where it was), or null when it does not belong to this text or
   * refers to an item this document does not have yet.
   */
  offsetOf(position: Y.RelativePosition): number | null {
    const id = position.item
    const p = this.pending
    if (p !== null) {
      const typed = id === null ? -1 : id.clock - p.clock
      if (id !== null && id.client === p.client && typed >= 0 && typed < p.length) {
        return p.offset + typed + (position.assoc >= 0 ? 0 : 1)
      }
      this.flush()
    }
    if (id === null) {
      if (!this.ownsTypeReference(position)) return null
      return position.assoc >= 0 ? this.tree.size : 0
    }
    let clock = id.clock
    let span = this.clocks.find(id.client, clock)
    if (span === undefined || span.size === 0) {
      const live = followRedone(this.ytext, id.client, clock)
      if (live === null) return null
      clock = live.clock
      span = this.clocks.find(live.client, clock)
      if (span === undefined) return null
    }
    const before = this.tree.offsetOf(span)
    if (span.size === 0) return before
    return before + (clock - span.clock) + (position.assoc >= 0 ? 0 : 1)
  }

  /**
   * A relative position for `offset` (clipped to the text). `assoc >= 0` ties it to the
   * character after the offset (text inserted at it goes before the position); `assoc < 0`
   * to the character before it (text inserted at it goes after). Equal to
   * `Y.createRelativePositionFromTypeIndex(ytext, offset, assoc)`, in O(log n).
   */
  relativePositionAt(offset: number, assoc: number): Y.RelativePosition {
    const p = this.pending
    if (p !== null) {
      const typed = (assoc < 0 ? offset - 1 : offset) - p.offset
      if (typed >= 0 && typed < p.length) {
        return this.positionFor(Y.createID(p.client, p.clock + typed), assoc)
      }
      this.flush()
    }
    const size = this.tree.size
    offset = Math.max(0, Math.min(offset, size))
    let target: number
    if (assoc < 0) {
      if (offset === 0) return this.positionFor(null, assoc)
      target = offset - 1
    } else {
      if (offset === size) return this.positionFor(null, assoc)
      target = offset
    }
    const found = this.tree.spanAt(target)!
    return this.positionFor(Y.createID(found.span.client, found.span.clock + found.index), assoc)
  }

  /** The character at `offset` as Yjs holds it, read from its item (O(log n)). */
  charAt(offset: number): string {
    this.flush()
    const found = this.tree.spanAt(offset)
    if (found === null) return ''
    const clock = found.span.clock + found.index
    return textOfIds(this.ytext.doc!, found.span.client, clock, 1)
  }

  /** Spans in text order, as [client, clock, length, visible] (tests only). */
  describe(): Array<[number, number, number, boolean]> {
    this.flush()
    return [...this.tree.spans()].map((s) => [s.client, s.clock, s.len, s.size > 0])
  }

  /** Checks internal bookkeeping (tests only). */
  checkInvariants(): void {
    this.flush()
    this.tree.checkInvariants()
  }

  private placeInsertedItems(transaction: Y.Transaction, changed: ChangedSpan[]): void {
    forEachItemMadeIn(transaction, this.ytext, (item) => {
      if (this.clocks.find(itemClient(item), itemClock(item)) !== undefined) return
      // Its left neighbours may be new too: place the whole chain, leftmost first.
      const chain: TextItem[] = [item]
      let left = leftItem(item)
      while (
        left !== null &&
        isMadeIn(transaction, left) &&
        this.clocks.find(itemClient(left), itemClock(left)) === undefined
      ) {
        chain.push(left)
        left = leftItem(left)
      }
      for (let j = chain.length - 1; j >= 0; j--) this.place(chain[j]!, changed)
    })
  }

  private place(item: TextItem, changed: ChangedSpan[]): void {
    let anchor: Span | null = null
    const left = leftItem(item)
    if (left !== null) {
      const lastClock = itemClock(left) + itemLength(left) - 1
      anchor = this.clocks.find(itemClient(left), lastClock)!
      if (anchor.clock + anchor.len - 1 > lastClock)
        this.split(anchor, lastClock + 1 - anchor.clock)
    }
    const visible = isVisibleText(item)
    const span = this.tree.createSpan(itemClient(item), itemClock(item), itemLength(item), visible)
    span.oldSize = 0
    this.tree.insertAfter(anchor, span)
    this.clocks.add(span)
    if (visible) {
      changed.push({ span, text: itemText(item), oldText: '', offset: 0, oldOffset: 0 })
    }
  }

  private hideDeletedItems(transaction: Y.Transaction, changed: ChangedSpan[]): void {
    forEachDeletedRun(transaction, (client, clock, len) => {
      for (let span of this.clocks.overlapping(client, clock, len)) {
        if (span.size === 0) continue
        if (span.clock < clock) span = this.split(span, clock - span.clock)
        if (span.clock + span.len > clock + len) this.split(span, clock + len - span.clock)
        this.tree.setSize(span, 0)
        const oldText = textOfIds(transaction.doc, span.client, span.clock, span.len)
        changed.push({ span, text: '', oldText, offset: 0, oldOffset: 0 })
      }
    })
  }

  /** Places the pending local edit in the tree. */
  private flush(): void {
    const p = this.pending
    if (p === null) return
    this.pending = null
    this.applyLocalEdit(p.offset, p.deleted, p.client, p.clock, p.length)
  }

  /** Hides the `count` visible characters from `offset` on (a local deletion). */
  private hideRange(offset: number, count: number): void {
    const found = this.tree.spanAt(offset)!
    let span: Span | null = found.index > 0 ? this.split(found.span, found.index) : found.span
    let first: Span | null = null
    let last: Span = span
    while (count > 0 && span !== null) {
      if (span.size > 0) {
        if (span.len > count) this.split(span, count)
        count -= span.len
        this.tree.setSize(span, 0)
        this.tree.commit(span)
        first ??= span
        last = span
      }
      span = this.tree.next(span)
    }
    this.mergeWithNeighbours(last)
    if (first !== null && first !== last) this.mergeWithNeighbours(first)
  }

  private split(span: Span, at: number): Span {
    const right = this.tree.split(span, at)
    this.clocks.add(right)
    return right
  }

  /** Joins a span with neighbours that continue its ids with the same visibility. */
  private mergeWithNeighbours(span: Span): void {
    if (!this.isInTree(span)) return
    const next = this.tree.next(span)
    if (next !== null && continues(span, next)) {
      this.tree.remove(next)
      this.clocks.remove(next)
      this.tree.extend(span, next.len)
    }
    const previous = this.tree.previous(span)
    if (previous !== null && continues(previous, span)) {
      this.tree.remove(span)
      this.clocks.remove(span)
      this.tree.extend(previous, span.len)
    }
  }

  private isInTree(span: Span): boolean {
    return this.clocks.find(span.client, span.clock) === span
  }

  private positionFor(item: Y.ID | null, assoc: number): Y.RelativePosition {
    const owner = ownerId(this.ytext)
    if (owner === null) {
      // A root type keeps its name for the document's life: look it up once.
      this.rootName ??= rootName(this.ytext)
      return relativePosition(null, this.rootName, item, assoc)
    }
    return relativePosition(owner, null, item, assoc)
  }

  private ownsTypeReference(position: Y.RelativePosition): boolean {
    const owner = ownerId(this.ytext)
    if (position.tname !== null) return owner === null && isRootNamed(this.ytext, position.tname)
    return owner !== null && position.type !== null && Y.compareIDs(position.type, owner)
  }
}

const continues = (a: Span, b: Span): boolean =>
  a.client === b.client && a.clock + a.len === b.clock && a.size > 0 === b.size > 0

/** Joins changed spans that sit next to each other into non-touching changes. */
const composeChanges = (changed: ChangedSpan[]): TextChange[] => {
  const changes: TextChange[] = []
  let current: TextChange | null = null
  for (const c of changed) {
    const oldLength = c.span.oldSize
    const newLength = c.span.size
    if (current !== null && current.oldEnd === c.oldOffset && current.newEnd === c.offset) {
      current.oldEnd += oldLength
      current.newEnd += newLength
      current.text += c.text
      current.oldText += c.oldText
      continue
    }
    current = {
      oldStart: c.oldOffset,
      oldEnd: c.oldOffset + oldLength,
      newStart: c.offset,
      newEnd: c.offset + newLength,
      text: c.text,
      oldText: c.oldText,
    }
    changes.push(current)
  }
  return changes
}
