/**
 * The buffer's own copy of its text, kept as lines in a B+tree.
 *
 * Leaves hold runs of lines as three parallel arrays (text, ending code, full length); branch
 * nodes hold, per child, its count of lines and of UTF-16 code units. Row -> offset and
 * offset -> row are then one root-to-leaf descent each, O(log n).
 *
 * An edit (`splice`) re-splits only the lines it touches: the line holding the start of the
 * edit through the line holding its end. A line break is complete once its `\n` is read, so
 * nothing an edit does after a line can change that line's ending, and the line before the
 * edit never needs a look. The new lines replace the old in the tree in one pass that adds or
 * removes whole subtrees, so a 200,000-line paste or a full delete costs O(k + log n), never a
 * rebuild.
 *
 * This module seeks and edits; the nodes and the operations that split, merge and check them
 * are in `line-nodes.ts`.
 */

import {
  ENDING_LF,
  ENDING_NONE,
  endingLength,
  endingText,
  type LineArrays,
  type LineEnding,
  splitLines,
} from './line-breaks.js'
import { type Branch, collect, Leaf, type LineNode, LineNodes, lineCountOf } from './line-nodes.js'

export type { LineEnding } from './line-breaks.js'

const DEFAULT_LEAF_CAPACITY = 64
const DEFAULT_BRANCH_CAPACITY = 32

/**
 * Node capacities of a `LineStore`. The defaults suit real documents; small values give deep
 * trees from little text, which is what tests of the balancing need.
 */
export interface LineStoreOptions {
  /** Most lines in one leaf (at least 4); a leaf other than the root holds at least half. */
  leafCapacity?: number
  /** Most children of one branch (at least 4); a branch other than the root holds at least half. */
  branchCapacity?: number
}

/**
 * Lines of a text in a balanced tree, updated in place by splices.
 *
 * Rows count lines from 0; offsets and columns count UTF-16 code units. Lines end at `\n`
 * or `\r\n`; a lone `\r` is an ordinary character, as in Atom: `new LineStore('a\r\nb\rc\n')`
 * has lines `a`, `b\rc`, `''`.
 * Every method checks its arguments and throws a `RangeError` (a `TypeError` for a
 * non-number) naming the one that is out of range; callers that want Atom's clipping clip
 * before calling.
 *
 * @example
 * const store = new LineStore('ab\ncd')
 * store.splice(1, 0, '\n') // => ''; lines are now 'a', 'b', 'cd'
 * store.rowForOffset(4) // => 2 (the 'c' of 'cd')
 */
export class LineStore {
  private root: LineNode
  private readonly nodes: LineNodes

  // Results of the last seek, kept in fields so that lookups allocate nothing. They stay
  // valid until lines are replaced (`foundRow` is then -1), so repeated lookups on one line,
  // as an edit makes, descend once.
  private foundLeaf = new Leaf([], [], [], 0)
  private foundIndex = 0
  private foundRow = -1
  private foundOffset = 0
  // The branches a seek passed through and the child taken in each; `depth` of them are valid.
  private readonly pathNodes: Branch[] = []
  private readonly pathSlots: number[] = []
  private depth = 0

  // Reused output of re-splitting an edited region.
  private readonly scratch: LineArrays = { texts: [], ends: [], lens: [] }

  /**
   * Builds the store from `text` in one pass, O(n).
   *
   * @example new LineStore('a\nb').lineCount // => 2
   */
  constructor(text = '', options: LineStoreOptions = {}) {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${typeof text}`)
    this.nodes = new LineNodes(
      capacity(options.leafCapacity, DEFAULT_LEAF_CAPACITY, 'leafCapacity'),
      capacity(options.branchCapacity, DEFAULT_BRANCH_CAPACITY, 'branchCapacity'),
    )
    const lines: LineArrays = { texts: [], ends: [], lens: [] }
    splitLines(text, lines)
    let nodes: LineNode[] = this.nodes.leavesFrom(lines)
    while (nodes.length > 1) nodes = this.nodes.branchesFrom(nodes)
    this.root = nodes[0]!
  }

  /** Total length in UTF-16 code units, endings included. */
  get length(): number {
    return this.root.chars
  }

  /** Number of lines, at least 1: `''` has one line and `'a\n'` has two. */
  get lineCount(): number {
    return lineCountOf(this.root)
  }

  /**
   * The whole text, O(n).
   *
   * @example new LineStore('a\r\nb').getText() // => 'a\r\nb'
   */
  getText(): string {
    return this.textIn(0, this.root.chars)
  }

  /**
   * The text from offset `start` up to (not including) `end`, O(log n + end - start).
   * Requires `0 <= start <= end <= length`.
   *
   * @example new LineStore('ab\ncd').getTextInOffsets(1, 4) // => 'b\nc'
   */
  getTextInOffsets(start: number, end: number): string {
    checkIndex(start, 'start', this.root.chars)
    checkIndex(end, 'end', this.root.chars)
    if (end < start) throw new RangeError(`end must not be before start (${start}), got ${end}`)
    return this.textIn(start, end)
  }

  /**
   * The text of line `row`, without its ending.
   *
   * @example new LineStore('a\r\nb').lineForRow(0) // => 'a'
   */
  lineForRow(row: number): string {
    checkIndex(row, 'row', this.lineCount - 1)
    this.seekRow(row)
    return this.foundLeaf.texts[this.foundIndex]!
  }

  /**
   * The ending of line `row`: `''` for the last line, else `'\n'`, `'\r\n'` or `'\r'`.
   *
   * @example new LineStore('a\r\nb').lineEndingForRow(0) // => '\r\n'
   */
  lineEndingForRow(row: number): LineEnding {
    checkIndex(row, 'row', this.lineCount - 1)
    this.seekRow(row)
    return endingText(this.foundLeaf.ends[this.foundIndex]!)
  }

  /**
   * The length of line `row`, without its ending.
   *
   * @example new LineStore('ab\r\n').lineLengthForRow(0) // => 2
   */
  lineLengthForRow(row: number): number {
    checkIndex(row, 'row', this.lineCount - 1)
    this.seekRow(row)
    const leaf = this.foundLeaf
    const i = this.foundIndex
    return leaf.lens[i]! - endingLength(leaf.ends[i]!)
  }

  /**
   * The offset of the first character of line `row`.
   *
   * @example new LineStore('ab\r\ncd').offsetForRow(1) // => 4
   */
  offsetForRow(row: number): number {
    checkIndex(row, 'row', this.lineCount - 1)
    this.seekRow(row)
    return this.foundOffset
  }

  /**
   * The row whose text or ending holds `offset`: the row that starts at or before it and
   * whose ending ends after it. `offset === length` maps to the last row.
   *
   * @example new LineStore('ab\r\ncd').rowForOffset(3) // => 0 (inside the '\r\n' of row 0)
   */
  rowForOffset(offset: number): number {
    checkIndex(offset, 'offset', this.root.chars)
    this.seekOffset(offset)
    return this.foundRow
  }

  /**
   * The row and column of `offset`. An offset inside a line ending (for example between the
   * `\r` and the `\n` of `\r\n`) is clipped backward to the end of that line's text, so the
   * column is never past the line's length.
   *
   * @example new LineStore('ab\r\ncd').positionForOffset(3) // => {row: 0, column: 2}
   */
  positionForOffset(offset: number): { row: number; column: number } {
    checkIndex(offset, 'offset', this.root.chars)
    this.seekOffset(offset)
    const leaf = this.foundLeaf
    const i = this.foundIndex
    const lineLength = leaf.lens[i]! - endingLength(leaf.ends[i]!)
    return { row: this.foundRow, column: Math.min(offset - this.foundOffset, lineLength) }
  }

  /**
   * The offset of (`row`, `column`). A column past the end of the line (`Infinity`
   * included) is clipped backward to the end of the line's text, never into its ending.
   *
   * @example new LineStore('ab\r\ncd').offsetForPosition(0, 9) // => 2
   */
  offsetForPosition(row: number, column: number): number {
    checkIndex(row, 'row', this.lineCount - 1)
    if (!(column >= 0) || (column !== Number.POSITIVE_INFINITY && !Number.isInteger(column))) {
      throw indexError(column, 'column', 'a non-negative integer or Infinity')
    }
    this.seekRow(row)
    const leaf = this.foundLeaf
    const i = this.foundIndex
    const lineLength = leaf.lens[i]! - endingLength(leaf.ends[i]!)
    return this.foundOffset + Math.min(column, lineLength)
  }

  /**
   * Replaces `deleteCount` code units at `offset` with `insertText` and returns the text
   * removed. Line breaks are re-read across the edges of the edit: a `\r` that ends up just
   * before a `\n` makes the ending `\r\n`; text inserted between the `\r` and the `\n` of
   * `\r\n` leaves the `\r` as the last character of the line and the ending `\n`; deleting the
   * `\n` of `\r\n` joins the two lines, the `\r` staying as text.
   *
   * Costs O(log n) plus the length of the lines touched and of the text inserted or removed:
   * an edit inside one line patches that line in place; any other edit re-splits only the
   * lines from the one holding `offset` to the one holding `offset + deleteCount`.
   *
   * @example
   * const store = new LineStore('a\rb')
   * store.splice(2, 0, '\n') // => ''; lines are now 'a', 'b' with ending '\r\n' on 'a'
   */
  splice(offset: number, deleteCount: number, insertText: string): string {
    const length = this.root.chars
    checkIndex(offset, 'offset', length)
    checkIndex(deleteCount, 'deleteCount', length - offset)
    if (typeof insertText !== 'string') {
      throw new TypeError(`insertText must be a string, got ${typeof insertText}`)
    }
    this.seekOffset(offset)
    const leaf = this.foundLeaf
    const index = this.foundIndex
    const lineStart = this.foundOffset
    const text = leaf.texts[index]!
    const ending = leaf.ends[index]!
    const lineLength = leaf.lens[index]! - endingLength(ending)
    const column = offset - lineStart

    // Typing and deleting within one line: no line break can appear or disappear, so the
    // line is patched in place and only the character counts on its path change. Edits that
    // reach the end of a line ending in `\n` take the slow path: a `\r` left or put there
    // turns the break into `\r\n` (or back).
    const editEnd = column + deleteCount
    if (
      editEnd <= lineLength &&
      insertText.indexOf('\n') === -1 &&
      !(ending === ENDING_LF && editEnd === lineLength)
    ) {
      const delta = insertText.length - deleteCount
      if (deleteCount === 0 && delta === 0) return ''
      const removed = text.slice(column, editEnd)
      leaf.texts[index] = text.slice(0, column) + insertText + text.slice(editEnd)
      leaf.lens[index]! += delta
      leaf.chars += delta
      for (let d = 0; d < this.depth; d++) {
        const node = this.pathNodes[d]!
        node.chars += delta
        node.charCounts[this.pathSlots[d]!]! += delta
      }
      return removed
    }

    // The affected region: whole lines, endings included, from `startRow` through `endRow`.
    const startRow = this.foundRow
    const regionStart = lineStart
    let endRow = startRow
    let regionEnd = lineStart + leaf.lens[index]!
    let region: string | null = text + endingText(ending)
    const end = offset + deleteCount
    if (end >= regionEnd && ending !== ENDING_NONE) {
      this.seekOffset(end)
      endRow = this.foundRow
      regionEnd = this.foundOffset + this.foundLeaf.lens[this.foundIndex]!
      region = null
    }
    if (region === null) region = this.textIn(regionStart, regionEnd)

    const at = offset - regionStart
    const removed = region.slice(at, at + deleteCount)
    const lines = this.scratch
    splitLines(region.slice(0, at) + insertText + region.slice(at + deleteCount), lines)
    if (endRow < this.lineCount - 1) {
      // The region ends with a line break, so its last piece is the empty start of the row
      // after the region, which is not being replaced.
      lines.texts.pop()
      lines.ends.pop()
      lines.lens.pop()
    }
    this.replaceRows(startRow, endRow + 1, lines)
    lines.texts.length = 0
    lines.ends.length = 0
    lines.lens.length = 0
    return removed
  }

  /**
   * Iterates the text (without ending) of rows `startRow` up to (not including) `endRow`,
   * O(log n) per leaf of lines. The arguments are checked at the call, not at the first
   * step; the store must not be changed while the iteration runs.
   *
   * @example [...new LineStore('a\nb\nc').lines(1)] // => ['b', 'c']
   */
  lines(startRow = 0, endRow: number = this.lineCount): Generator<string, void, undefined> {
    checkIndex(endRow, 'endRow', this.lineCount)
    checkIndex(startRow, 'startRow', endRow)
    return this.linesBetween(startRow, endRow)
  }

  /**
   * Throws an `Error` describing the first broken invariant of the tree: uniform leaf depth,
   * node sizes within capacity and at least half full (the root excepted), counts that match
   * the children, lengths that match the texts, and line endings that read back the same.
   * O(n); meant for tests.
   */
  checkInvariants(): void {
    this.nodes.checkTree(this.root)
  }

  // ---- Seeking ----

  /** Descends to line `row` (which must exist), recording the path. */
  private seekRow(row: number): void {
    if (row === this.foundRow) return
    let node = this.root
    let offset = 0
    let rest = row
    let depth = 0
    while (!node.isLeaf) {
      const counts = node.lineCounts
      const chars = node.charCounts
      let i = 0
      for (;;) {
        const count = counts[i]!
        if (rest < count) break
        rest -= count
        offset += chars[i]!
        i++
      }
      this.pathNodes[depth] = node
      this.pathSlots[depth] = i
      depth++
      node = node.children[i]!
    }
    const lens = node.lens
    for (let i = 0; i < rest; i++) offset += lens[i]!
    this.depth = depth
    this.foundLeaf = node
    this.foundIndex = rest
    this.foundRow = row
    this.foundOffset = offset
  }

  /** Descends to the line holding `offset` (see `rowForOffset`), recording the path. */
  private seekOffset(offset: number): void {
    const lineStart = this.foundOffset
    if (
      this.foundRow >= 0 &&
      offset >= lineStart &&
      offset < lineStart + this.foundLeaf.lens[this.foundIndex]!
    ) {
      return
    }
    let node = this.root
    if (offset >= node.chars) {
      this.seekRow(lineCountOf(node) - 1)
      return
    }
    let rest = offset
    let row = 0
    let depth = 0
    while (!node.isLeaf) {
      const counts = node.lineCounts
      const chars = node.charCounts
      let i = 0
      for (;;) {
        const count = chars[i]!
        if (rest < count) break
        rest -= count
        row += counts[i]!
        i++
      }
      this.pathNodes[depth] = node
      this.pathSlots[depth] = i
      depth++
      node = node.children[i]!
    }
    const lens = node.lens
    let i = 0
    for (;;) {
      const len = lens[i]!
      if (rest < len) break
      rest -= len
      i++
    }
    this.depth = depth
    this.foundLeaf = node
    this.foundIndex = i
    this.foundRow = row + i
    this.foundOffset = offset - rest
  }

  private *linesBetween(startRow: number, endRow: number): Generator<string, void, undefined> {
    let row = startRow
    while (row < endRow) {
      // Each leaf is found afresh by row, so the walk holds no path that an edit could stale.
      this.seekRow(row)
      const texts = this.foundLeaf.texts
      const stop = Math.min(texts.length, this.foundIndex + endRow - row)
      for (let i = this.foundIndex; i < stop; i++) {
        row++
        yield texts[i]!
      }
    }
  }

  private textIn(start: number, end: number): string {
    if (start === end) return ''
    const out: string[] = []
    collect(this.root, start, end, out)
    return out.length === 1 ? out[0]! : out.join('')
  }

  // ---- Replacing lines ----

  /** Replaces rows [from, to) (at least one) with the lines of `src` (at least one). */
  private replaceRows(from: number, to: number, src: LineArrays): void {
    this.foundRow = -1
    const added = src.texts.length
    this.nodes.underMinimum = false
    const extras = this.nodes.replaceIn(this.root, from, to, src, 0, added)
    if (extras !== null) {
      let nodes = [this.root, ...extras]
      while (nodes.length > 1) nodes = this.nodes.branchesFrom(nodes)
      this.root = nodes[0]!
    }
    if (this.nodes.underMinimum) {
      // Only nodes on the paths to the first new line and to the first line after the new
      // ones were changed, so only those paths can hold a node under its minimum.
      const after = Math.min(from + added, this.lineCount - 1)
      let changed = true
      while (changed) changed = this.repairAt(from) || this.repairAt(after)
    }
    this.collapseRoot()
    this.foundRow = -1
  }

  // ---- Rebalancing ----

  /**
   * Fixes the deepest node under its minimum on the path to `row`, by merging it with (or
   * sharing with) a sibling, or by dropping a root that has one child. Returns whether
   * anything changed; the caller repeats until nothing does.
   */
  private repairAt(row: number): boolean {
    this.foundRow = -1 // the last repair may have moved lines between nodes
    this.seekRow(row)
    // Depth d's node: the leaf at `this.depth`, else pathNodes[d] (pathNodes[0] is the root).
    let d = this.depth
    while (d >= 1 && !this.nodes.isUnder(d === this.depth ? this.foundLeaf : this.pathNodes[d]!))
      d--
    if (d === 0) return this.collapseRoot()
    // An only child cannot borrow from a sibling; its parent, itself too small, merges first.
    while (d >= 1 && this.pathNodes[d - 1]!.children.length === 1) d--
    if (d === 0) return this.collapseRoot()
    this.nodes.mergeWithSibling(this.pathNodes[d - 1]!, this.pathSlots[d - 1]!)
    return true
  }

  private collapseRoot(): boolean {
    let changed = false
    while (!this.root.isLeaf && this.root.children.length === 1) {
      this.root = this.root.children[0]!
      changed = true
    }
    return changed
  }
}

function capacity(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 4) {
    throw new RangeError(`${name} must be an integer of at least 4, got ${String(value)}`)
  }
  return value
}

/** Throws unless `value` is an integer in [0, max]. */
function checkIndex(value: number, name: string, max: number): void {
  // `>>> 0` maps every non-integer, negative, NaN or non-number to something else, so one
  // comparison covers them all on the fast path.
  if (value >>> 0 !== value || value > max) {
    throw indexError(value, name, `an integer in [0, ${max}]`)
  }
}

function indexError(value: unknown, name: string, expected: string): Error {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    const shown = typeof value === 'number' ? 'NaN' : typeof value
    return new TypeError(`${name} must be a number, got ${shown}`)
  }
  return new RangeError(`${name} must be ${expected}, got ${value}`)
}
