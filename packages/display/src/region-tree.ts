/**
 * The regions of a display layer in buffer order, as a treap (a binary search tree kept
 * balanced by random heap priorities) whose nodes count the buffer rows and screen rows
 * below them. Finding the region of a buffer row or of a screen row is one descent,
 * O(log n) expected; replacing the regions an edit touched is two splits and two merges.
 */
import type { RegionLayout } from './region.js'

/** A node of the tree: one region plus the totals of its subtree. */
interface Node {
  layout: RegionLayout
  readonly priority: number
  left: Node | null
  right: Node | null
  /** Buffer rows in this subtree. */
  bufferRows: number
  /** Screen rows in this subtree. */
  screenRows: number
}

/** A region found by row, with the buffer row and the screen row it starts at. */
export interface FoundRegion {
  readonly layout: RegionLayout
  readonly bufferRow: number
  readonly screenRow: number
}

const update = (node: Node): void => {
  node.bufferRows =
    node.layout.bufferRows + (node.left?.bufferRows ?? 0) + (node.right?.bufferRows ?? 0)
  node.screenRows =
    node.layout.lengths.length + (node.left?.screenRows ?? 0) + (node.right?.screenRows ?? 0)
}

/** Regions in order with their row totals; see the module comment. */
export class RegionTree {
  private root: Node | null = null
  // A small xorshift generator: priorities only need to look random, and a fixed seed keeps
  // the tree's shape the same from run to run.
  private seed = 0x9e3779b9

  /** Buffer rows in all regions. */
  get bufferRowCount(): number {
    return this.root?.bufferRows ?? 0
  }

  /** Screen rows in all regions. */
  get screenRowCount(): number {
    return this.root?.screenRows ?? 0
  }

  /** Replaces every region with `layouts`, in order. O(n). */
  reset(layouts: readonly RegionLayout[]): void {
    this.root = this.build(layouts)
  }

  /**
   * Replaces the regions that hold buffer rows [`startRow`, `endRow`) with `layouts`.
   * `startRow` must start a region and `endRow` must end one (or be the row count).
   */
  replace(startRow: number, endRow: number, layouts: readonly RegionLayout[]): void {
    if (layouts.length === 1 && this.swapInPlace(startRow, endRow, layouts[0]!)) return
    const [before, rest] = this.split(this.root, startRow)
    const [, after] = this.split(rest, endRow - startRow)
    this.root = this.merge(this.merge(before, this.build(layouts)), after)
  }

  /**
   * Puts `layout` in place of the one region holding exactly rows [`startRow`, `endRow`)
   * when the row totals stay the same (typing inside a line, mostly): no split, no merge.
   */
  private swapInPlace(startRow: number, endRow: number, layout: RegionLayout): boolean {
    let node = this.root
    let row = startRow
    while (node !== null) {
      const leftRows = node.left?.bufferRows ?? 0
      if (row < leftRows) {
        node = node.left
        continue
      }
      row -= leftRows
      const old = node.layout
      if (row >= old.bufferRows) {
        row -= old.bufferRows
        node = node.right
        continue
      }
      if (
        row !== 0 ||
        old.bufferRows !== endRow - startRow ||
        layout.bufferRows !== old.bufferRows ||
        layout.lengths.length !== old.lengths.length
      ) {
        return false
      }
      node.layout = layout
      return true
    }
    return false
  }

  /** The region holding buffer row `row` (clamped to the rows there are). */
  findByBufferRow(row: number): FoundRegion {
    let node = this.root
    let bufferRow = 0
    let screenRow = 0
    while (node !== null) {
      const left = node.left
      const leftRows = left?.bufferRows ?? 0
      if (row < leftRows && left !== null) {
        node = left
        continue
      }
      const start = bufferRow + leftRows
      const screenStart = screenRow + (left?.screenRows ?? 0)
      if (row < leftRows + node.layout.bufferRows || node.right === null) {
        return { layout: node.layout, bufferRow: start, screenRow: screenStart }
      }
      row -= leftRows + node.layout.bufferRows
      bufferRow = start + node.layout.bufferRows
      screenRow = screenStart + node.layout.lengths.length
      node = node.right
    }
    throw new Error('the region tree is empty')
  }

  /** The region holding screen row `row` (clamped to the rows there are). */
  findByScreenRow(row: number): FoundRegion {
    let node = this.root
    let bufferRow = 0
    let screenRow = 0
    while (node !== null) {
      const left = node.left
      const leftRows = left?.screenRows ?? 0
      if (row < leftRows && left !== null) {
        node = left
        continue
      }
      const start = screenRow + leftRows
      const bufferStart = bufferRow + (left?.bufferRows ?? 0)
      const rows = node.layout.lengths.length
      if (row < leftRows + rows || node.right === null) {
        return { layout: node.layout, bufferRow: bufferStart, screenRow: start }
      }
      row -= leftRows + rows
      screenRow = start + rows
      bufferRow = bufferStart + node.layout.bufferRows
      node = node.right
    }
    throw new Error('the region tree is empty')
  }

  /** Every region in order (tests and rebuilds). */
  *regions(): Generator<RegionLayout, void, undefined> {
    const stack: Node[] = []
    let node = this.root
    while (node !== null || stack.length > 0) {
      while (node !== null) {
        stack.push(node)
        node = node.left
      }
      const next = stack.pop()!
      yield next.layout
      node = next.right
    }
  }

  /** Checks the heap order and the totals (tests only). */
  checkInvariants(): void {
    const check = (node: Node | null): void => {
      if (node === null) return
      for (const child of [node.left, node.right]) {
        if (child !== null && child.priority > node.priority) throw new Error('heap order broken')
      }
      check(node.left)
      check(node.right)
      const { bufferRows, screenRows } = node
      update(node)
      if (bufferRows !== node.bufferRows || screenRows !== node.screenRows) {
        throw new Error('stale row totals')
      }
    }
    check(this.root)
  }

  private nextPriority(): number {
    let x = this.seed
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    this.seed = x >>> 0
    return this.seed
  }

  /** A treap of `layouts` in order, in O(n): the right spine is kept on a stack. */
  private build(layouts: readonly RegionLayout[]): Node | null {
    const spine: Node[] = []
    for (const layout of layouts) {
      const node: Node = {
        layout,
        priority: this.nextPriority(),
        left: null,
        right: null,
        bufferRows: 0,
        screenRows: 0,
      }
      let last: Node | null = null
      while (spine.length > 0 && spine[spine.length - 1]!.priority < node.priority) {
        last = spine.pop()!
        update(last)
      }
      node.left = last
      if (spine.length > 0) spine[spine.length - 1]!.right = node
      spine.push(node)
    }
    while (spine.length > 1) update(spine.pop()!)
    const root = spine.pop() ?? null
    if (root !== null) update(root)
    return root
  }

  /** Splits into the regions before buffer row `rows` (counted from the subtree's start) and the rest. */
  private split(node: Node | null, rows: number): [Node | null, Node | null] {
    if (node === null) return [null, null]
    const leftRows = node.left?.bufferRows ?? 0
    if (rows <= leftRows) {
      const [a, b] = this.split(node.left, rows)
      node.left = b
      update(node)
      return [a, node]
    }
    const [a, b] = this.split(node.right, rows - leftRows - node.layout.bufferRows)
    node.right = a
    update(node)
    return [node, b]
  }

  private merge(a: Node | null, b: Node | null): Node | null {
    if (a === null) return b
    if (b === null) return a
    if (a.priority > b.priority) {
      a.right = this.merge(a.right, b)
      update(a)
      return a
    }
    b.left = this.merge(a, b.left)
    update(b)
    return b
  }
}
