/// <reference lib="dom" />
/**
 * The text rows of the view: one absolutely placed element per visible screen row, kept in
 * a cache keyed by screen row. Display changes shift the cache (an element follows its row
 * when rows above it come or go) and drop only the rows they replaced, so an edit rewrites
 * the rows it changed and nothing else.
 */
import type { DisplayChange } from '@tandem/display'
import { RowGeometry } from './row-geometry.js'

interface CachedRow {
  readonly element: HTMLDivElement
  text: string
  /** Measured positions of the row's boundaries, made when first asked for. */
  geometry: RowGeometry | null
  top: number
  row: number
}

import { FOLD_MARKER_CLASS, LINE_CLASS } from './class-names.js'

/** What a fold shows as on screen. */
const FOLD_GLYPH = '\u22EF'

/**
 * Where a cached row goes through `changes` (runs in row order, old rows before the change,
 * new rows after): its new row, or null when a change replaced it.
 *
 * @example shiftRow(7, [{ oldRange: [[2, 0], [3, 0]], newRange: [[2, 0], [5, 0]] }]) // => 9
 */
export const shiftRow = (row: number, changes: readonly DisplayChange[]): number | null => {
  let shifted = row
  for (const { oldRange, newRange } of changes) {
    if (row < oldRange.start.row) break
    if (row < oldRange.end.row) return null
    shifted = row - oldRange.end.row + newRange.end.row
  }
  return shifted
}

/**
 * Renders screen rows into `element` and keeps them while they stay visible.
 *
 * @example
 * const lines = new LinesLayer(container, '\uFEFF')
 * lines.render(0, 40, (row) => editor.lineTextForScreenRow(row) ?? '', 21)
 */
export class LinesLayer {
  private rows = new Map<number, CachedRow>()

  constructor(
    readonly element: HTMLElement,
    private readonly foldCharacter: string,
  ) {}

  /** Moves the cached rows through display changes; rows a change replaced are removed. */
  applyChanges(changes: readonly DisplayChange[]): void {
    if (changes.length === 0) return
    const next = new Map<number, CachedRow>()
    for (const cached of this.rows.values()) {
      const row = shiftRow(cached.row, changes)
      if (row === null) {
        cached.element.remove()
        continue
      }
      cached.row = row
      next.set(row, cached)
    }
    this.rows = next
  }

  /** Forgets every row (after the layout was reset). */
  clear(): void {
    for (const cached of this.rows.values()) cached.element.remove()
    this.rows.clear()
  }

  /**
   * Shows rows [`start`, `end`): a cached row whose text is unchanged only moves to its
   * place; others are built. Rows outside the range go.
   */
  render(
    start: number,
    end: number,
    textForRow: (row: number) => string,
    lineHeight: number,
  ): void {
    for (const [row, cached] of this.rows) {
      if (row < start || row >= end) {
        cached.element.remove()
        this.rows.delete(row)
      }
    }
    for (let row = start; row < end; row++) {
      const text = textForRow(row)
      let cached = this.rows.get(row)
      if (cached === undefined) {
        const element = this.element.ownerDocument.createElement('div')
        element.className = LINE_CLASS
        cached = { element, text: '', geometry: null, top: -1, row }
        this.fill(cached, text)
        this.rows.set(row, cached)
        this.element.appendChild(element)
      } else if (cached.text !== text) {
        this.fill(cached, text)
      }
      const top = row * lineHeight
      if (cached.top !== top) {
        cached.top = top
        cached.element.style.top = `${top}px`
        cached.element.style.height = `${lineHeight}px`
      }
      if (cached.element.dataset.screenRow !== String(row)) {
        cached.element.dataset.screenRow = String(row)
      }
    }
  }

  /** The element showing `row`, if it is rendered. */
  elementForRow(row: number): HTMLElement | undefined {
    return this.rows.get(row)?.element
  }

  /**
   * The measured layout of `row` (undefined when it is not rendered), valid until the row is
   * drawn again or `forgetMeasurements` is called.
   */
  geometryForRow(row: number): RowGeometry | undefined {
    const cached = this.rows.get(row)
    if (cached === undefined) return undefined
    cached.geometry ??= new RowGeometry(cached.element, cached.text)
    return cached.geometry
  }

  /** Drops every measurement (the font, its size or the zoom changed). */
  forgetMeasurements(): void {
    for (const cached of this.rows.values()) cached.geometry = null
  }

  /** How many rows are in the DOM. */
  get renderedRowCount(): number {
    return this.rows.size
  }

  private fill(cached: CachedRow, text: string): void {
    cached.text = text
    cached.geometry = null
    this.fillElement(cached.element, text)
  }

  /** Makes `element` show a row's text, a fold as its placeholder. */
  fillElement(element: HTMLElement, text: string): void {
    const document = element.ownerDocument
    element.textContent = ''
    const pieces = text.split(this.foldCharacter)
    pieces.forEach((piece, i) => {
      if (i > 0) {
        const fold = document.createElement('span')
        fold.className = FOLD_MARKER_CLASS
        fold.textContent = FOLD_GLYPH
        element.appendChild(fold)
      }
      if (piece !== '') element.appendChild(document.createTextNode(piece))
    })
  }
}
