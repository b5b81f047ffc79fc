/**
 * The nodes of `LineStore`'s B+tree and the operations that keep them within their
 * capacities: cutting lines into leaves and nodes into branches, replacing a run of lines in a
 * subtree (splitting the nodes that outgrow), merging or sharing between siblings, reading text
 * out of a subtree and checking a tree's invariants.
 *
 * Leaves hold runs of lines as three parallel arrays (text, ending code, full length); branch
 * nodes hold, per child, its count of lines and of UTF-16 code units.
 */

import {
  ENDING_CR,
  ENDING_LF,
  ENDING_NONE,
  endingLength,
  endingText,
  type LineArrays,
} from './line-breaks.js'

/** A run of lines, as parallel arrays. */
export class Leaf {
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

/** An inner node: its children and, per child, its counts of lines and code units. */
export class Branch {
  readonly isLeaf = false as const
  // Per-child counts live in the parent, in plain number arrays, so a descent scans numbers
  // without touching the children it passes over.
  children: LineNode[] = []
  lineCounts: number[] = []
  charCounts: number[] = []
  lines = 0
  chars = 0
}

/** A node of the line tree. */
export type LineNode = Leaf | Branch

/** Lines under `node`. */
export const lineCountOf = (node: LineNode): number =>
  node.isLeaf ? node.texts.length : node.lines
const itemCountOf = (node: LineNode): number =>
  node.isLeaf ? node.texts.length : node.children.length

const sum = (values: readonly number[], from = 0, to = values.length): number => {
  let total = 0
  for (let i = from; i < to; i++) total += values[i]!
  return total
}

/**
 * The node operations of one line tree under its capacities, a leaf's and a branch's; a node
 * other than the root holds at least half its capacity.
 *
 * @example
 * const nodes = new LineNodes(64, 32)
 * let level: LineNode[] = nodes.leavesFrom(lines)
 * while (level.length > 1) level = nodes.branchesFrom(level) // level[0] is the root
 */
export class LineNodes {
  /** Fewest lines in a leaf other than the root: half of `leafMax`. */
  readonly leafMin: number
  /** Fewest children of a branch other than the root: half of `branchMax`. */
  readonly branchMin: number
  /**
   * Set by `replaceIn` when a node it changed is left under its minimum; the caller clears it
   * before a replacement and repairs the tree after one that set it.
   */
  underMinimum = false

  constructor(
    /** Most lines in one leaf. */
    readonly leafMax: number,
    /** Most children of one branch. */
    readonly branchMax: number,
  ) {
    this.leafMin = leafMax >> 1
    this.branchMin = branchMax >> 1
  }

  /**
   * Replaces rows [from, to) of `node` (at least one) with lines [s, e) of `src`. Returns the
   * nodes to insert after `node` when it outgrew its capacity, else null. The nodes returned,
   * and `node` itself when it splits, are within capacity and at least half full.
   */
  replaceIn(
    node: LineNode,
    from: number,
    to: number,
    src: LineArrays,
    s: number,
    e: number,
  ): LineNode[] | null {
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
  ): LineNode[] | null {
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
  ): LineNode[] | null {
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
    let extras: LineNode[] | null = null
    if (keep0) extras = this.replaceIn(child0, from - start0, end0, src, s, e)
    if (keep1) this.replaceIn(child1, 0, to - start1, src, e, e)
    if ((keep0 && this.isUnder(child0)) || (keep1 && this.isUnder(child1))) {
      this.underMinimum = true
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
    const children: LineNode[] = []
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
  leavesFrom(lines: LineArrays): Leaf[] {
    const { texts, ends, lens } = lines
    const leaves: Leaf[] = []
    forEachPiece(texts.length, this.leafMax, (from, to) => {
      const pieceLens = lens.slice(from, to)
      leaves.push(new Leaf(texts.slice(from, to), ends.slice(from, to), pieceLens, sum(pieceLens)))
    })
    return leaves
  }

  /** Groups nodes of one height under the fewest branches, as evenly filled as possible. */
  branchesFrom(nodes: LineNode[]): Branch[] {
    const branches: Branch[] = []
    forEachPiece(nodes.length, this.branchMax, (from, to) => {
      const branch = new Branch()
      setChildren(branch, nodes.slice(from, to))
      branches.push(branch)
    })
    return branches
  }

  // ---- Rebalancing ----

  private minOf(node: LineNode): number {
    return node.isLeaf ? this.leafMin : this.branchMin
  }

  /** Whether `node` holds fewer items than a node other than the root may. */
  isUnder(node: LineNode): boolean {
    return itemCountOf(node) < this.minOf(node)
  }

  /**
   * Merges child `slot` of `parent` with a neighbour, or, when together they exceed one
   * node's capacity, shares their items evenly between the two (each then at least half full).
   */
  mergeWithSibling(parent: Branch, slot: number): void {
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

  /**
   * Throws an `Error` describing the first broken invariant of the tree under `root` (see
   * `LineStore.checkInvariants`). O(n).
   */
  checkTree(root: LineNode): void {
    if (!root.isLeaf && root.children.length < 2) fail('a branch root has fewer than 2 children')
    if (lineCountOf(root) < 1) fail('the root has no lines')
    const state = { leafDepth: -1, row: 0, lastEnding: ENDING_NONE }
    this.checkNode(root, 0, true, state)
    if (state.lastEnding !== ENDING_NONE) fail('the last line has an ending')
  }

  private checkNode(
    node: LineNode,
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

/**
 * Appends to `out` the text of `node` from `start` to `end` (relative to `node`, start < end).
 *
 * @example collect(root, 0, root.chars, out) // out.join('') is the whole text
 */
export function collect(node: LineNode, start: number, end: number, out: string[]): void {
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

function setChildren(node: Branch, children: LineNode[]): void {
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

function fail(message: string): never {
  throw new Error(`LineStore invariant: ${message}`)
}
