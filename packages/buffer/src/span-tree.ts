/**
 * The order of a Y.Text's items, mirrored as a balanced tree of spans.
 *
 * Yjs keeps a text as a linked list of items; finding the character offset of an item means
 * walking that list from the start. This tree keeps the same order with the visible length of
 * every subtree, so an item's offset and the item at an offset are both found in O(log n).
 *
 * Each span keeps two visible lengths: `size` (now) and `oldSize` (before the transaction that
 * is being taken in). While a transaction is taken in they differ only for the spans it
 * changed, which lets the old and the new offset of every change be read from the same tree.
 */

const MAX_CHILDREN = 32

/** A run of consecutive Yjs ids (`client`, clocks `clock` .. `clock + len - 1`) in text order. */
export class Span {
  /** Visible UTF-16 length now: `len` when the run is visible text, else 0. */
  size: number
  /** Visible length before the transaction being taken in. */
  oldSize: number
  /** The leaf holding this span; kept up to date by the tree. */
  leaf: Leaf

  constructor(
    readonly client: number,
    public clock: number,
    public len: number,
    visible: boolean,
    leaf: Leaf,
  ) {
    this.size = visible ? len : 0
    this.oldSize = this.size
    this.leaf = leaf
  }
}

interface NodeBase {
  parent: Inner | null
  size: number
  oldSize: number
}

/** A leaf of the span tree. */
export interface Leaf extends NodeBase {
  readonly isLeaf: true
  spans: Span[]
}

interface Inner extends NodeBase {
  readonly isLeaf: false
  children: TreeNode[]
}

type TreeNode = Leaf | Inner

const newLeaf = (spans: Span[] = []): Leaf => ({
  isLeaf: true,
  parent: null,
  size: 0,
  oldSize: 0,
  spans,
})

const newInner = (children: TreeNode[]): Inner => {
  const node: Inner = { isLeaf: false, parent: null, size: 0, oldSize: 0, children }
  for (const child of children) {
    child.parent = node
    node.size += child.size
    node.oldSize += child.oldSize
  }
  return node
}

/** Both offsets of a position: now, and before the transaction being taken in. */
export interface Offsets {
  offset: number
  oldOffset: number
}

/** An ordered tree of spans with O(log n) offset <-> span lookups. */
export class SpanTree {
  private root: TreeNode = newLeaf()

  /** Visible length of the whole text. */
  get size(): number {
    return this.root.size
  }

  /** Makes a span in this tree's first leaf without inserting it (see `insertAfter`). */
  createSpan(client: number, clock: number, len: number, visible: boolean): Span {
    return new Span(client, clock, len, visible, this.firstLeaf())
  }

  /** Replaces the whole content with `spans`, in order, building leaves in bulk. */
  reset(spans: Span[]): void {
    if (spans.length === 0) {
      this.root = newLeaf()
      return
    }
    let level: TreeNode[] = []
    for (let i = 0; i < spans.length; i += MAX_CHILDREN) {
      const leaf = newLeaf(spans.slice(i, i + MAX_CHILDREN))
      for (const span of leaf.spans) {
        span.leaf = leaf
        leaf.size += span.size
        leaf.oldSize += span.oldSize
      }
      level.push(leaf)
    }
    while (level.length > 1) {
      const next: TreeNode[] = []
      for (let i = 0; i < level.length; i += MAX_CHILDREN) {
        next.push(newInner(level.slice(i, i + MAX_CHILDREN)))
      }
      level = next
    }
    this.root = level[0]!
    this.root.parent = null
  }

  /** Inserts `span` right after `anchor`, or at the very start when `anchor` is null. */
  insertAfter(anchor: Span | null, span: Span): void {
    let leaf: Leaf
    let index: number
    if (anchor === null) {
      leaf = this.firstLeaf()
      index = 0
    } else {
      leaf = anchor.leaf
      index = leaf.spans.indexOf(anchor) + 1
    }
    leaf.spans.splice(index, 0, span)
    span.leaf = leaf
    addToPath(leaf, span.size, span.oldSize)
    if (leaf.spans.length > MAX_CHILDREN) this.splitNode(leaf)
  }

  /**
   * Cuts `span` after `at` ids; the new right part (returned) follows it in the tree.
   * Visible lengths are conserved, so no sums change.
   */
  split(span: Span, at: number): Span {
    const right = new Span(span.client, span.clock + at, span.len - at, false, span.leaf)
    right.size = span.size > 0 ? span.len - at : 0
    right.oldSize = span.oldSize > 0 ? span.len - at : 0
    span.len = at
    span.size = span.size > 0 ? at : 0
    span.oldSize = span.oldSize > 0 ? at : 0
    const leaf = span.leaf
    leaf.spans.splice(leaf.spans.indexOf(span) + 1, 0, right)
    if (leaf.spans.length > MAX_CHILDREN) this.splitNode(leaf)
    return right
  }

  /** Removes `span` (used when merging it into a neighbour). */
  remove(span: Span): void {
    const leaf = span.leaf
    leaf.spans.splice(leaf.spans.indexOf(span), 1)
    addToPath(leaf, -span.size, -span.oldSize)
    if (leaf.spans.length === 0) this.removeEmpty(leaf)
  }

  /** Sets the current visible length of `span` (0 when deleted). */
  setSize(span: Span, size: number): void {
    const delta = size - span.size
    if (delta === 0) return
    span.size = size
    let node: TreeNode | null = span.leaf
    while (node !== null) {
      node.size += delta
      node = node.parent
    }
  }

  /** Grows `span` by `extra` ids that share its visibility (a merge with its right neighbour). */
  extend(span: Span, extra: number): void {
    const sizeDelta = span.size > 0 ? extra : 0
    const oldDelta = span.oldSize > 0 ? extra : 0
    span.len += extra
    span.size += sizeDelta
    span.oldSize += oldDelta
    addToPath(span.leaf, sizeDelta, oldDelta)
  }

  /** Makes the old visible length of `span` equal its current one (the transaction is taken in). */
  commit(span: Span): void {
    const delta = span.size - span.oldSize
    if (delta === 0) return
    span.oldSize = span.size
    let node: TreeNode | null = span.leaf
    while (node !== null) {
      node.oldSize += delta
      node = node.parent
    }
  }

  /** Visible length before `span`, now and before the transaction being taken in. */
  offsetsOf(span: Span): Offsets {
    const leaf = span.leaf
    let offset = 0
    let oldOffset = 0
    for (const s of leaf.spans) {
      if (s === span) break
      offset += s.size
      oldOffset += s.oldSize
    }
    let child: TreeNode = leaf
    let node = leaf.parent
    while (node !== null) {
      for (const c of node.children) {
        if (c === child) break
        offset += c.size
        oldOffset += c.oldSize
      }
      child = node
      node = node.parent
    }
    return { offset, oldOffset }
  }

  /** Current visible length before `span`. */
  offsetOf(span: Span): number {
    return this.offsetsOf(span).offset
  }

  /**
   * The visible span holding the character at `offset` (0 <= offset < size) and the index of that
   * character inside it; null past the end.
   */
  spanAt(offset: number): { span: Span; index: number } | null {
    if (offset < 0 || offset >= this.root.size) return null
    let node: TreeNode = this.root
    while (!node.isLeaf) {
      let chosen: TreeNode | undefined
      for (const child of node.children) {
        if (offset < child.size) {
          chosen = child
          break
        }
        offset -= child.size
      }
      node = chosen!
    }
    for (const span of node.spans) {
      if (offset < span.size) return { span, index: offset }
      offset -= span.size
    }
    return null
  }

  /** The last span in text order (visible or not), or null when the tree is empty. */
  last(): Span | null {
    let node: TreeNode = this.root
    while (!node.isLeaf) node = node.children[node.children.length - 1]!
    return node.spans[node.spans.length - 1] ?? null
  }

  /** The span after `span` in text order, or null at the end. */
  next(span: Span): Span | null {
    const leaf = span.leaf
    const i = leaf.spans.indexOf(span)
    if (i + 1 < leaf.spans.length) return leaf.spans[i + 1]!
    const nextLeaf = this.adjacentLeaf(leaf, 1)
    return nextLeaf === null ? null : nextLeaf.spans[0]!
  }

  /** The span before `span` in text order, or null at the start. */
  previous(span: Span): Span | null {
    const leaf = span.leaf
    const i = leaf.spans.indexOf(span)
    if (i > 0) return leaf.spans[i - 1]!
    const prevLeaf = this.adjacentLeaf(leaf, -1)
    return prevLeaf === null ? null : prevLeaf.spans[prevLeaf.spans.length - 1]!
  }

  /** All spans in text order (for tests and debugging). */
  *spans(): IterableIterator<Span> {
    yield* walk(this.root)
  }

  /** Checks the tree's bookkeeping; throws on the first inconsistency (tests only). */
  checkInvariants(): void {
    check(this.root, null)
  }

  private firstLeaf(): Leaf {
    let node = this.root
    while (!node.isLeaf) node = node.children[0]!
    return node
  }

  private adjacentLeaf(leaf: Leaf, direction: 1 | -1): Leaf | null {
    let child: TreeNode = leaf
    let node = leaf.parent
    while (node !== null) {
      const i = node.children.indexOf(child) + direction
      if (i >= 0 && i < node.children.length) {
        let down = node.children[i]!
        while (!down.isLeaf) {
          down = direction === 1 ? down.children[0]! : down.children[down.children.length - 1]!
        }
        return down
      }
      child = node
      node = node.parent
    }
    return null
  }

  private splitNode(node: TreeNode): void {
    const half = node.isLeaf ? node.spans.length >> 1 : node.children.length >> 1
    let right: TreeNode
    if (node.isLeaf) {
      right = newLeaf(node.spans.splice(half))
      for (const span of right.spans) {
        span.leaf = right
        right.size += span.size
        right.oldSize += span.oldSize
      }
    } else {
      right = newInner(node.children.splice(half))
    }
    node.size -= right.size
    node.oldSize -= right.oldSize
    const parent = node.parent
    if (parent === null) {
      this.root = newInner([node, right])
      return
    }
    right.parent = parent
    parent.children.splice(parent.children.indexOf(node) + 1, 0, right)
    if (parent.children.length > MAX_CHILDREN) this.splitNode(parent)
  }

  private removeEmpty(node: TreeNode): void {
    const parent = node.parent
    if (parent === null) {
      if (!node.isLeaf) this.root = newLeaf()
      return
    }
    parent.children.splice(parent.children.indexOf(node), 1)
    if (parent.children.length === 0) {
      this.removeEmpty(parent)
    } else if (parent === this.root && parent.children.length === 1) {
      this.root = parent.children[0]!
      this.root.parent = null
    }
  }
}

const addToPath = (leaf: Leaf, size: number, oldSize: number): void => {
  let node: TreeNode | null = leaf
  while (node !== null) {
    node.size += size
    node.oldSize += oldSize
    node = node.parent
  }
}

function* walk(node: TreeNode): IterableIterator<Span> {
  if (node.isLeaf) {
    yield* node.spans
  } else {
    for (const child of node.children) yield* walk(child)
  }
}

const check = (node: TreeNode, parent: Inner | null): void => {
  if (node.parent !== parent) throw new Error('span tree: wrong parent pointer')
  let size = 0
  let oldSize = 0
  if (node.isLeaf) {
    for (const span of node.spans) {
      if (span.leaf !== node) throw new Error('span tree: wrong leaf pointer')
      if (span.size !== 0 && span.size !== span.len) throw new Error('span tree: bad span size')
      size += span.size
      oldSize += span.oldSize
    }
  } else {
    for (const child of node.children) {
      check(child, node)
      size += child.size
      oldSize += child.oldSize
    }
  }
  if (size !== node.size || oldSize !== node.oldSize) throw new Error('span tree: wrong sums')
}
