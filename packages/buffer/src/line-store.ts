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
 */

import {
  ENDING_CR,
  ENDING_LF,
  ENDING_NONE,
  endingLength,
  endingText,
  type LineArrays,
  type LineEnding,
  splitLines,
} from './line-breaks.js'

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

class Leaf {
  readonly isLeaf = true as const
  constructor(
    public texts: string[],
    public ends: number[],
    /** Text length plus ending length of each line. */
    public lens: number[],
    /** Sum of `lens`. */
    public chars: number,
  ) {}
}

class Branch {
  readonly isLeaf = false as const
  // Per-child counts live in the parent, in plain number arrays, so a descent scans numbers
  // without touching the children it passes over.
  children: Node[] = []
  lineCounts: number[] = []
  charCounts: number[] = []
  lines = 0
  chars = 0
}

type Node = Leaf | Branch

const lineCountOf = (node: Node): number => (node.isLeaf ? node.texts.length : node.lines)
const itemCountOf = (node: Node): number => (node.isLeaf ? node.texts.length : node.children.length)

const sum = (values: readonly number[], from = 0, to = values.length): number => {
  let total = 0
  for (let i = from; i < to; i++) total += values[i]!
  return total
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
  private root: Node
  private readonly leafMax: number
  private readonly leafMin: number
  private readonly branchMax: number
  private readonly branchMin: number

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

  // Set by a replacement that left some node under its minimum size.
  private needsRepair = false
  // Reused output of re-splitting an edited region.
  private readonly scratch: LineArrays = { texts: [], ends: [], lens: [] }

  /**
   * Builds the store from `text` in one pass, O(n).
   *
   * @example new LineStore('a\nb').lineCount // => 2
   */
  constructor(text = '', options: LineStoreOptions = {}) {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${typeof text}`)
    this.leafMax = capacity(options.leafCapacity, DEFAULT_LEAF_CAPACITY, 'leafCapacity')
    this.branchMax = capacity(options.branchCapacity, DEFAULT_BRANCH_CAPACITY, 'branchCapacity')
    this.leafMin = this.leafMax >> 1
    this.branchMin = this.branchMax >> 1
    const lines: LineArrays = { texts: [], ends: [], lens: [] }
    splitLines(text, lines)
    let nodes: Node[] = this.leavesFrom(lines)
    while (nodes.length > 1) nodes = this.branchesFrom(nodes)
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
    const root = this.root
    if (!root.isLeaf && root.children.length < 2) fail('a branch root has fewer than 2 children')
    if (lineCountOf(root) < 1) fail('the root has no lines')
    const state = { leafDepth: -1, row: 0, lastEnding: ENDING_NONE }
    this.checkNode(root, 0, true, state)
    if (state.lastEnding !== ENDING_NONE) fail('the last line has an ending')
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
    this.needsRepair = false
    const extras = this.replaceIn(this.root, from, to, src, 0, added)
    if (extras !== null) {
      let nodes = [this.root, ...extras]
      while (nodes.length > 1) nodes = this.branchesFrom(nodes)
      this.root = nodes[0]!
    }
    if (this.needsRepair) {
      // Only nodes on the paths to the first new line and to the first line after the new
      // ones were changed, so only those paths can hold a node under its minimum.
      const after = Math.min(from + added, this.lineCount - 1)
      let changed = true
      while (changed) changed = this.repairAt(from) || this.repairAt(after)
    }
    this.collapseRoot()
    this.foundRow = -1
  }

  /**
   * Replaces rows [from, to) of `node` (at least one) with lines [s, e) of `src`. Returns the
   * nodes to insert after `node` when it outgrew its capacity, else null. The nodes returned,
   * and `node` itself when it splits, are within capacity and at least half full.
   */
  private replaceIn(
    node: Node,
    from: number,
    to: number,
    src: LineArrays,
    s: number,
    e: number,
  ): Node[] | null {
    return node.isLeaf
      ? this.replaceInLeaf(node, from, to, src, s, e)
      : this.replaceInBranch(node, from, to, src, s, e)
  }

  private replaceInLeaf(
    leaf: Leaf,
    from: number,
    to: number,
    src: LineArrays,
    s: number,
    e: number,
  ): Node[] | null {
    const count = leaf.texts.length - (to - from) + (e - s)
    if (count <= this.leafMax) {
      leaf.chars += sum(src.lens, s, e) - sum(leaf.lens, from, to)
      replaceRange(leaf.texts, from, to, src.texts, s, e)
      replaceRange(leaf.ends, from, to, src.ends, s, e)
      replaceRange(leaf.lens, from, to, src.lens, s, e)
      return null
    }
    const all: LineArrays = {
      texts: concatRanges(leaf.texts, from, to, src.texts, s, e),
      ends: concatRanges(leaf.ends, from, to, src.ends, s, e),
      lens: concatRanges(leaf.lens, from, to, src.lens, s, e),
    }
    const leaves = this.leavesFrom(all)
    const first = leaves[0]!
    leaf.texts = first.texts
    leaf.ends = first.ends
    leaf.lens = first.lens
    leaf.chars = first.chars
    return leaves.slice(1)
  }

  private replaceInBranch(
    node: Branch,
    from: number,
    to: number,
    src: LineArrays,
    s: number,
    e: number,
  ): Node[] | null {
    const counts = node.lineCounts
    let c0 = 0
    let start0 = 0
    while (from >= start0 + counts[c0]!) start0 += counts[c0++]!
    let c1 = c0
    let start1 = start0
    while (to > start1 + counts[c1]!) start1 += counts[c1++]!
    const child0 = node.children[c0]!
    const child1 = node.children[c1]!
    const count0 = counts[c0]!
    const count1 = counts[c1]!
    const chars0 = node.charCounts[c0]!
    const chars1 = node.charCounts[c1]!

    // A child entirely deleted with nothing to insert into it is dropped without a visit.
    const end0 = c0 === c1 ? to - start0 : count0
    const keep0 = e > s || from > start0 || end0 < count0
    const keep1 = c1 !== c0 && to < start1 + count1
    let extras: Node[] | null = null
    if (keep0) extras = this.replaceIn(child0, from - start0, end0, src, s, e)
    if (keep1) this.replaceIn(child1, 0, to - start1, src, e, e)
    if ((keep0 && this.isUnder(child0)) || (keep1 && this.isUnder(child1))) {
      this.needsRepair = true
    }

    if (keep0 && extras === null && (c1 === c0 || (keep1 && c1 === c0 + 1))) {
      // The usual case: the same children remain, only their counts change.
      node.lineCounts[c0] = lineCountOf(child0)
      node.charCounts[c0] = child0.chars
      let lines = lineCountOf(child0) - count0
      let chars = child0.chars - chars0
      if (c1 !== c0) {
        node.lineCounts[c1] = lineCountOf(child1)
        node.charCounts[c1] = child1.chars
        lines += lineCountOf(child1) - count1
        chars += child1.chars - chars1
      }
      node.lines += lines
      node.chars += chars
      return null
    }

    const old = node.children
    const children: Node[] = []
    for (let i = 0; i < c0; i++) children.push(old[i]!)
    if (keep0) children.push(child0)
    if (extras !== null) for (const extra of extras) children.push(extra)
    if (keep1) children.push(child1)
    for (let i = c1 + 1; i < old.length; i++) children.push(old[i]!)
    if (children.length <= this.branchMax) {
      setChildren(node, children)
      return null
    }
    const branches = this.branchesFrom(children)
    setChildren(node, branches[0]!.children)
    return branches.slice(1)
  }

  // ---- Building nodes ----

  /** Cuts lines into the fewest leaves that hold them, as evenly filled as possible. */
  private leavesFrom(lines: LineArrays): Leaf[] {
    const { texts, ends, lens } = lines
    const leaves: Leaf[] = []
    forEachPiece(texts.length, this.leafMax, (from, to) => {
      const pieceLens = lens.slice(from, to)
      leaves.push(new Leaf(texts.slice(from, to), ends.slice(from, to), pieceLens, sum(pieceLens)))
    })
    return leaves
  }

  /** Groups nodes of one height under the fewest branches, as evenly filled as possible. */
  private branchesFrom(nodes: Node[]): Branch[] {
    const branches: Branch[] = []
    forEachPiece(nodes.length, this.branchMax, (from, to) => {
      const branch = new Branch()
      setChildren(branch, nodes.slice(from, to))
      branches.push(branch)
    })
    return branches
  }

  // ---- Rebalancing ----

  private minOf(node: Node): number {
    return node.isLeaf ? this.leafMin : this.branchMin
  }

  private isUnder(node: Node): boolean {
    return itemCountOf(node) < this.minOf(node)
  }

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
    while (d >= 1 && !this.isUnder(d === this.depth ? this.foundLeaf : this.pathNodes[d]!)) d--
    if (d === 0) return this.collapseRoot()
    // An only child cannot borrow from a sibling; its parent, itself too small, merges first.
    while (d >= 1 && this.pathNodes[d - 1]!.children.length === 1) d--
    if (d === 0) return this.collapseRoot()
    this.mergeWithSibling(this.pathNodes[d - 1]!, this.pathSlots[d - 1]!)
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

  /**
   * Merges child `slot` of `parent` with a neighbour, or, when together they exceed one
   * node's capacity, shares their items evenly between the two (each then at least half full).
   */
  private mergeWithSibling(parent: Branch, slot: number): void {
    const a = slot + 1 < parent.children.length ? slot : slot - 1
    const left = parent.children[a]!
    const right = parent.children[a + 1]!
    let merged: boolean
    if (left.isLeaf && right.isLeaf) {
      const texts = left.texts.concat(right.texts)
      const ends = left.ends.concat(right.ends)
      const lens = left.lens.concat(right.lens)
      merged = texts.length <= this.leafMax
      const half = merged ? texts.length : texts.length >> 1
      left.texts = texts.slice(0, half)
      left.ends = ends.slice(0, half)
      left.lens = lens.slice(0, half)
      left.chars = sum(left.lens)
      if (!merged) {
        right.texts = texts.slice(half)
        right.ends = ends.slice(half)
        right.lens = lens.slice(half)
        right.chars = sum(right.lens)
      }
    } else if (!left.isLeaf && !right.isLeaf) {
      const children = left.children.concat(right.children)
      merged = children.length <= this.branchMax
      const half = merged ? children.length : children.length >> 1
      setChildren(left, children.slice(0, half))
      if (!merged) setChildren(right, children.slice(half))
    } else {
      throw new Error('LineStore: siblings of different heights')
    }
    parent.lineCounts[a] = lineCountOf(left)
    parent.charCounts[a] = left.chars
    if (merged) {
      parent.children.splice(a + 1, 1)
      parent.lineCounts.splice(a + 1, 1)
      parent.charCounts.splice(a + 1, 1)
    } else {
      parent.lineCounts[a + 1] = lineCountOf(right)
      parent.charCounts[a + 1] = right.chars
    }
  }

  // ---- Checking ----

  private checkNode(
    node: Node,
    depth: number,
    isRoot: boolean,
    state: { leafDepth: number; row: number; lastEnding: number },
  ): void {
    const items = itemCountOf(node)
    const max = node.isLeaf ? this.leafMax : this.branchMax
    if (items > max) fail(`a node at depth ${depth} has ${items} items, over ${max}`)
    if (!isRoot && items < this.minOf(node)) {
      fail(`a node at depth ${depth} has ${items} items, under ${this.minOf(node)}`)
    }
    if (node.isLeaf) {
      if (state.leafDepth === -1) state.leafDepth = depth
      if (state.leafDepth !== depth) fail(`leaves at depths ${state.leafDepth} and ${depth}`)
      if (node.ends.length !== items || node.lens.length !== items) fail('leaf arrays differ')
      for (let i = 0; i < items; i++) {
        const text = node.texts[i]!
        const ending = node.ends[i]!
        const where = `row ${state.row}`
        if (text.indexOf('\n') !== -1) fail(`${where} holds a line break`)
        if (ending === ENDING_CR) fail(`${where} ends in a lone '\\r', which is not a break`)
        if (ending === ENDING_LF && text.endsWith('\r')) {
          fail(`${where} ends in '\\r' before a '\\n'`)
        }
        if (node.lens[i] !== text.length + endingLength(ending)) fail(`${where} has a bad length`)
        if (state.lastEnding === ENDING_NONE && state.row > 0) fail(`${where} follows the end`)
        state.lastEnding = ending
        state.row++
      }
      if (node.chars !== sum(node.lens)) fail('leaf chars differ from its lines')
      return
    }
    const { children, lineCounts, charCounts } = node
    if (lineCounts.length !== items || charCounts.length !== items) fail('count arrays differ')
    for (let i = 0; i < items; i++) {
      const child = children[i]!
      if (lineCounts[i] !== lineCountOf(child)) fail(`stale line count at depth ${depth}`)
      if (charCounts[i] !== child.chars) fail(`stale char count at depth ${depth}`)
      this.checkNode(child, depth + 1, false, state)
    }
    if (node.lines !== sum(lineCounts)) fail(`branch lines differ at depth ${depth}`)
    if (node.chars !== sum(charCounts)) fail(`branch chars differ at depth ${depth}`)
  }
}

// ---- Helpers ----

/** Appends to `out` the text of `node` from `start` to `end` (relative to `node`, start < end). */
function collect(node: Node, start: number, end: number, out: string[]): void {
  if (node.isLeaf) {
    const { texts, ends, lens } = node
    let position = 0
    for (let i = 0; i < lens.length && position < end; i++) {
      const next = position + lens[i]!
      if (next > start) {
        const text = texts[i]!
        const ending = endingText(ends[i]!)
        if (position >= start && next <= end) {
          out.push(text)
          if (ending !== '') out.push(ending)
        } else {
          const from = Math.max(start - position, 0)
          out.push((text + ending).slice(from, Math.min(end, next) - position))
        }
      }
      position = next
    }
    return
  }
  const { children, charCounts } = node
  let position = 0
  for (let i = 0; i < children.length && position < end; i++) {
    const next = position + charCounts[i]!
    if (next > start) {
      collect(children[i]!, Math.max(start - position, 0), Math.min(end, next) - position, out)
    }
    position = next
  }
}

function setChildren(node: Branch, children: Node[]): void {
  const lineCounts: number[] = []
  const charCounts: number[] = []
  let lines = 0
  let chars = 0
  for (const child of children) {
    const childLines = lineCountOf(child)
    lineCounts.push(childLines)
    charCounts.push(child.chars)
    lines += childLines
    chars += child.chars
  }
  node.children = children
  node.lineCounts = lineCounts
  node.charCounts = charCounts
  node.lines = lines
  node.chars = chars
}

/**
 * Calls `f` for consecutive ranges covering [0, count): the fewest ranges of at most `max`
 * items, their sizes differing by at most one. When `count > max` each range has more than
 * max / 2 items, which keeps every node built this way at least half full.
 */
function forEachPiece(count: number, max: number, f: (from: number, to: number) => void): void {
  const pieces = Math.max(1, Math.ceil(count / max))
  const size = Math.floor(count / pieces)
  const larger = count % pieces
  let from = 0
  for (let p = 0; p < pieces; p++) {
    const to = from + size + (p < larger ? 1 : 0)
    f(from, to)
    from = to
  }
}

/**
 * Replaces `target[from..to)` with `src[s..e)` in place, shifting the tail by hand: splice
 * with spread arguments would allocate, and a long spread can overflow the call stack.
 */
function replaceRange<T>(
  target: T[],
  from: number,
  to: number,
  src: readonly T[],
  s: number,
  e: number,
): void {
  const added = e - s
  const removed = to - from
  const length = target.length
  if (added > removed) {
    const grow = added - removed
    for (let k = 0; k < grow; k++) target.push(target[length - 1]!)
    for (let k = length - 1; k >= to; k--) target[k + grow] = target[k]!
  } else if (added < removed) {
    const shrink = removed - added
    for (let k = to; k < length; k++) target[k - shrink] = target[k]!
    target.length = length - shrink
  }
  for (let k = 0; k < added; k++) target[from + k] = src[s + k]!
}

/** `target[0..from) + src[s..e) + target[to..)` as a new array. */
function concatRanges<T>(
  target: readonly T[],
  from: number,
  to: number,
  src: readonly T[],
  s: number,
  e: number,
): T[] {
  const out: T[] = []
  for (let k = 0; k < from; k++) out.push(target[k]!)
  for (let k = s; k < e; k++) out.push(src[k]!)
  for (let k = to; k < target.length; k++) out.push(target[k]!)
  return out
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

function fail(message: string): never {
  throw new Error(`LineStore invariant: ${message}`)
}
