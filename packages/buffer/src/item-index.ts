import * as Y from 'yjs'
import { ClockIndex } from './clock-index.js'
import { type Span, SpanTree } from './span-tree.js'

/**
 * One change of a transaction, in UTF-16 offsets: the old text [oldStart, oldEnd) became
 * `text`, which now occupies [newStart, newEnd). Changes are sorted and never touch each other.
 */
export interface TextChange {
  oldStart: number
  oldEnd: number
  newStart: number
  newEnd: number
  /** The inserted text (empty for a pure deletion). */
  text: string
  /** The text that was replaced (empty for a pure insertion). */
  oldText: string
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

  constructor(readonly ytext: Y.Text) {
    this.rebuild()
  }

  /** Visible length of the text. */
  get length(): number {
    return this.tree.size
  }

  /** Reads every item of the text again (O(n)); used once when binding to a document. */
  rebuild(): void {
    this.clocks.clear()
    const spans: Span[] = []
    for (let item = this.ytext._start; item !== null; item = item.right) {
      const span = this.tree.createSpan(item.id.client, item.id.clock, item.length, isVisible(item))
      spans.push(span)
      this.clocks.add(span)
    }
    this.tree.reset(spans)
  }

  /**
   * Takes in a transaction that changed the text and returns its changes, sorted, with the
   * text each one inserted. Must be called for every such transaction, in order (from an
   * observer of the text).
   */
  ingest(transaction: Y.Transaction): TextChange[] {
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
   * The offset a relative position points to now, with Yjs's rules (following redone items;
   * a deleted item resolves to where it was), or null when it does not belong to this text or
   * refers to an item this document does not have yet.
   */
  offsetOf(position: Y.RelativePosition): number | null {
    const id = position.item
    if (id === null) {
      if (!this.ownsTypeReference(position)) return null
      return position.assoc >= 0 ? this.tree.size : 0
    }
    const store = this.ytext.doc!.store
    let client = id.client
    let clock = id.clock
    let span = this.clocks.find(client, clock)
    if (span === undefined || span.size === 0) {
      if (Y.getState(store, client) <= clock) return null
      let item = Y.getItem(store, Y.createID(client, clock))
      while (item instanceof Y.Item && item.redone !== null) {
        const diff = clock - item.id.clock
        client = item.redone.client
        clock = item.redone.clock + diff
        if (Y.getState(store, client) <= clock) return null
        item = Y.getItem(store, Y.createID(client, clock))
      }
      if (!(item instanceof Y.Item) || item.parent !== this.ytext) return null
      span = this.clocks.find(client, clock)
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
    const found = this.tree.spanAt(offset)
    if (found === null) return ''
    const clock = found.span.clock + found.index
    const item = Y.getItem(this.ytext.doc!.store, Y.createID(found.span.client, clock))
    const content = (item as Y.Item).content as Y.ContentString
    return content.str.charAt(clock - item.id.clock)
  }

  /** Spans in text order, as [client, clock, length, visible] (tests only). */
  describe(): Array<[number, number, number, boolean]> {
    return [...this.tree.spans()].map((s) => [s.client, s.clock, s.len, s.size > 0])
  }

  /** Checks internal bookkeeping (tests only). */
  checkInvariants(): void {
    this.tree.checkInvariants()
  }

  private placeInsertedItems(transaction: Y.Transaction, changed: ChangedSpan[]): void {
    const store = transaction.doc.store
    const before = transaction.beforeState
    const isNew = (item: Y.Item) => item.id.clock >= (before.get(item.id.client) ?? 0)
    for (const [client, after] of transaction.afterState) {
      const start = before.get(client) ?? 0
      if (after === start) continue
      const structs = store.clients.get(client)!
      for (let i = Y.findIndexSS(structs, start); i < structs.length; i++) {
        const struct = structs[i]!
        if (!(struct instanceof Y.Item) || struct.parent !== this.ytext) continue
        if (this.clocks.find(client, struct.id.clock) !== undefined) continue
        // Its left neighbours may be new too: place the whole chain, leftmost first.
        const chain: Y.Item[] = [struct]
        let left = struct.left
        while (
          left !== null &&
          isNew(left) &&
          this.clocks.find(left.id.client, left.id.clock) === undefined
        ) {
          chain.push(left)
          left = left.left
        }
        for (let j = chain.length - 1; j >= 0; j--) this.place(chain[j]!, changed)
      }
    }
  }

  private place(item: Y.Item, changed: ChangedSpan[]): void {
    let anchor: Span | null = null
    const left = item.left
    if (left !== null) {
      const lastClock = left.id.clock + left.length - 1
      anchor = this.clocks.find(left.id.client, lastClock)!
      if (anchor.clock + anchor.len - 1 > lastClock)
        this.split(anchor, lastClock + 1 - anchor.clock)
    }
    const visible = isVisible(item)
    const span = this.tree.createSpan(item.id.client, item.id.clock, item.length, visible)
    span.oldSize = 0
    this.tree.insertAfter(anchor, span)
    this.clocks.add(span)
    if (visible) {
      const text = (item.content as Y.ContentString).str
      changed.push({ span, text, oldText: '', offset: 0, oldOffset: 0 })
    }
  }

  private hideDeletedItems(transaction: Y.Transaction, changed: ChangedSpan[]): void {
    for (const [client, deletes] of transaction.deleteSet.clients) {
      for (const { clock, len } of deletes) {
        for (let span of this.clocks.overlapping(client, clock, len)) {
          if (span.size === 0) continue
          if (span.clock < clock) span = this.split(span, clock - span.clock)
          if (span.clock + span.len > clock + len) this.split(span, clock + len - span.clock)
          this.tree.setSize(span, 0)
          const oldText = this.deletedText(transaction, span)
          changed.push({ span, text: '', oldText, offset: 0, oldOffset: 0 })
        }
      }
    }
  }

  /** The text of a span deleted by `transaction`: its items keep their content until cleanup. */
  private deletedText(transaction: Y.Transaction, span: Span): string {
    const store = transaction.doc.store
    let text = ''
    let clock = span.clock
    const end = span.clock + span.len
    while (clock < end) {
      const item = Y.getItem(store, Y.createID(span.client, clock)) as Y.Item
      const take = Math.min(end, item.id.clock + item.length) - clock
      const content = item.content
      if (content instanceof Y.ContentString) {
        const from = clock - item.id.clock
        text += content.str.slice(from, from + take)
      }
      clock += take
    }
    return text
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
    const owner = this.ytext._item
    if (owner === null) {
      return new Y.RelativePosition(null, Y.findRootTypeKey(this.ytext), item, assoc)
    }
    return new Y.RelativePosition(owner.id, null, item, assoc)
  }

  private ownsTypeReference(position: Y.RelativePosition): boolean {
    const owner = this.ytext._item
    if (position.tname !== null) {
      return owner === null && (this.ytext.doc!.share.get(position.tname) as unknown) === this.ytext
    }
    return owner !== null && position.type !== null && Y.compareIDs(position.type, owner.id)
  }
}

const isVisible = (item: Y.Item): boolean =>
  !item.deleted && item.content.constructor === Y.ContentString

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
