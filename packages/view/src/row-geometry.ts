/// <reference lib="dom" />
/**
 * Where the browser drew each grapheme boundary of one rendered row, read from the row's own
 * text with DOM Ranges (as a browser measures a caret), so wide characters, emoji, combining
 * marks, proportional fonts and any zoom are placed where they really are. Positions are
 * measured when first asked and kept until the row's content changes.
 */
import { FOLD_MARKER_CLASS } from './class-names.js'
import { graphemeBoundaries, graphemeEnd, graphemeStart } from './graphemes.js'

/** A text node of the row and the column of the row its first unit is at. */
interface Piece {
  readonly node: Text
  readonly start: number
}

/**
 * The measured horizontal layout of one row element whose text nodes, in order, spell the
 * row's screen text (one unit per fold placeholder).
 *
 * @example
 * const geometry = new RowGeometry(rowElement, 'abc 中文')
 * geometry.leftOf(4) // => 30.1: pixels from the row's left edge to the boundary before 中
 */
export class RowGeometry {
  private pieces: Piece[] | null = null
  private readonly lefts = new Map<number, number>()

  constructor(
    /** The row element, laid out in the document. */
    readonly element: HTMLElement,
    /** The row's screen text. */
    readonly text: string,
  ) {}

  /**
   * Pixels from the row's left edge to the boundary at `column`, in the row's own (unscaled)
   * pixels. A column inside a grapheme cluster counts as the cluster's start, or with
   * `towardEnd` its end; columns past the text are its end.
   */
  leftOf(column: number, towardEnd = false): number {
    const { text } = this
    const at = towardEnd ? graphemeEnd(text, column) : graphemeStart(text, column)
    let left = this.lefts.get(at)
    if (left === undefined) {
      left = this.measure(at)
      this.lefts.set(at, left)
    }
    return left
  }

  /**
   * The grapheme boundary nearest to `left` pixels from the row's left edge (binary search
   * over the boundaries, measuring only those it visits).
   */
  columnAt(left: number): number {
    const { text } = this
    if (text.length === 0 || left <= 0) return 0
    const boundaries = graphemeBoundaries(text)
    const count = boundaries === null ? text.length + 1 : boundaries.length
    const boundary = (index: number) => (boundaries === null ? index : boundaries[index]!)
    // The last boundary whose left is at or before `left`.
    let low = 0
    let high = count - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (this.leftOf(boundary(middle)) <= left) low = middle
      else high = middle - 1
    }
    if (low === count - 1) return boundary(low)
    const before = this.leftOf(boundary(low))
    const after = this.leftOf(boundary(low + 1))
    return left - before <= after - left ? boundary(low) : boundary(low + 1)
  }

  /** The width of the whole row's text. */
  width(): number {
    return this.leftOf(this.text.length)
  }

  /** Reads the boundary before `column` (a boundary) from the layout. */
  private measure(column: number): number {
    const { text, element } = this
    if (text.length === 0) return 0
    const origin = element.getBoundingClientRect().left
    const scale = scaleOf(element)
    // The left edge of the cluster after the boundary, or at the end the right edge of the
    // last cluster: a collapsed range has no reliable box at the edges of a line.
    if (column < text.length) {
      const rect = this.rangeRect(column, graphemeEnd(text, column + 1))
      return rect === null ? 0 : (rect.left - origin) / scale
    }
    const rect = this.rangeRect(graphemeStart(text, column - 1), column)
    return rect === null ? 0 : (rect.right - origin) / scale
  }

  /** The box of the text between two columns, or null when the row holds no such text. */
  private rangeRect(from: number, to: number): DOMRect | null {
    const start = this.pieceAt(from, false)
    const end = this.pieceAt(to, true)
    if (start === null || end === null) return null
    const folded = foldPlaceholder(start.piece.node)
    if (folded !== null && to - from === 1 && start.piece === end.piece) {
      return folded.getBoundingClientRect()
    }
    const range = this.element.ownerDocument.createRange()
    range.setStart(start.piece.node, start.offset)
    range.setEnd(end.piece.node, end.offset)
    return range.getBoundingClientRect()
  }

  /**
   * The text node holding `column` and the offset in it; at a node edge, the node after it,
   * or with `atEnd` the node before it.
   */
  private pieceAt(column: number, atEnd: boolean): { piece: Piece; offset: number } | null {
    const pieces = this.textPieces()
    if (pieces.length === 0) return null
    let low = 0
    let high = pieces.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      const start = pieces[middle]!.start
      if (start < column || (!atEnd && start === column)) low = middle
      else high = middle - 1
    }
    const piece = pieces[low]!
    const length = piece.node.data.length
    return { piece, offset: Math.max(0, Math.min(column - piece.start, length)) }
  }

  private textPieces(): Piece[] {
    if (this.pieces !== null) return this.pieces
    const pieces: Piece[] = []
    const document = this.element.ownerDocument
    const walker = document.createTreeWalker(this.element, NodeFilter.SHOW_TEXT)
    let start = 0
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node as Text
      if (text.data.length === 0) continue
      pieces.push({ node: text, start })
      start += text.data.length
    }
    this.pieces = pieces
    return pieces
  }
}

/** The fold placeholder a text node belongs to, if it does. */
const foldPlaceholder = (node: Text): HTMLElement | null => {
  const parent = node.parentElement
  return parent?.classList.contains(FOLD_MARKER_CLASS) ? parent : null
}

/**
 * How many screen pixels one of the element's own CSS pixels takes (1 unless CSS `zoom` or a
 * scaling transform applies above it); browser zoom keeps CSS pixels, so it is 1 there too.
 */
const scaleOf = (element: HTMLElement): number => {
  const container = element.parentElement
  if (container === null) return 1
  const own = container.offsetWidth
  if (own < 200) return 1
  const scale = container.getBoundingClientRect().width / own
  return Number.isFinite(scale) && scale > 0 && Math.abs(scale - 1) > 0.01 ? scale : 1
}
