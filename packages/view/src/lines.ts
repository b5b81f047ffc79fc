/// <reference lib="dom" />
/**
 * The text rows of the view: one absolutely placed element per visible screen row, kept in
 * a cache keyed by screen row. Display changes shift the cache (an element follows its row
 * when rows above it come or go) and drop only the rows they replaced, so an edit rewrites
 * the rows it changed and nothing else. A kept row is filled again only when its colours
 * changed: new tokens that colour it as before leave its element alone.
 */
import type { DisplayChange } from '@tandem/display'
import { FOLD_MARKER_CLASS, LINE_CLASS } from './class-names.js'
import { type HighlightSegment, type RowContent, sameHighlighting } from './highlight.js'
import { RowGeometry } from './row-geometry.js'

interface CachedRow {
  readonly element: HTMLDivElement
  text: string
  highlightKey: readonly unknown[]
  segments: readonly HighlightSegment[]
  /** Measured positions of the row's boundaries, made when first asked for. */
  geometry: RowGeometry | null
  top: number
  row: number
}

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
 * Renders screen rows into `element` and keeps them while they stay visible. A row's text
 * nodes, in order, join to exactly its screen line's text, except for each fold character,
 * which shows as a fold marker holding one glyph.
 *
 * @example
 * const lines = new LinesLayer(container, '\uFEFF')
 * lines.render(0, 40, (row) => ({ text: editor.lineTextForScreenRow(row) ?? '', highlightKey: [] }), 21)
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
   * Shows rows [`start`, `end`): a cached row whose text and colours are unchanged only moves
   * to its place; others are built. Rows outside the range go.
   */
  render(
    start: number,
    end: number,
    contentForRow: (row: number) => RowContent,
    lineHeight: number,
  ): void {
    for (const [row, cached] of this.rows) {
      if (row < start || row >= end) {
        cached.element.remove()
        this.rows.delete(row)
      }
    }
    for (let row = start; row < end; row++) {
      const content = contentForRow(row)
      const { text, highlightKey } = content
      let cached = this.rows.get(row)
      if (cached === undefined) {
        const element = this.element.ownerDocument.createElement('div')
        element.className = LINE_CLASS
        cached = { element, text: '', highlightKey, segments: [], geometry: null, top: -1, row }
        this.fill(cached, text, this.segmentsOf(content))
        this.rows.set(row, cached)
        this.element.appendChild(element)
      } else if (cached.text !== text) {
        cached.highlightKey = highlightKey
        this.fill(cached, text, this.segmentsOf(content))
      } else if (!sameItems(cached.highlightKey, highlightKey)) {
        cached.highlightKey = highlightKey
        const segments = this.segmentsOf(content)
        if (!sameHighlighting(cached.segments, segments)) this.fill(cached, text, segments)
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

  /** Makes `element` show plain `text` (a fold as its placeholder), as a row with no colours. */
  fillElement(element: HTMLElement, text: string): void {
    this.fillSegments(element, this.segmentsOf({ text, highlightKey: [] }))
  }

  /** How many rows are in the DOM. */
  get renderedRowCount(): number {
    return this.rows.size
  }

  private segmentsOf(content: RowContent): readonly HighlightSegment[] {
    if (content.segments !== undefined) return content.segments()
    const segments: HighlightSegment[] = []
    content.text.split(this.foldCharacter).forEach((piece, i) => {
      if (i > 0) segments.push({ text: this.foldCharacter, className: '', fold: true })
      if (piece !== '') segments.push({ text: piece, className: '' })
    })
    return segments
  }

  private fill(cached: CachedRow, text: string, segments: readonly HighlightSegment[]): void {
    cached.text = text
    cached.segments = segments
    cached.geometry = null
    this.fillSegments(cached.element, segments)
  }

  private fillSegments(element: HTMLElement, segments: readonly HighlightSegment[]): void {
    const document = element.ownerDocument
    element.textContent = ''
    for (const { text: piece, className, fold } of segments) {
      if (fold === true) {
        const marker = document.createElement('span')
        marker.className = FOLD_MARKER_CLASS
        marker.textContent = FOLD_GLYPH
        element.appendChild(marker)
      } else if (className === '') {
        element.appendChild(document.createTextNode(piece))
      } else {
        const span = document.createElement('span')
        span.className = className
        span.textContent = piece
        element.appendChild(span)
      }
    }
  }
}

/** Whether two lists hold the same objects in the same order. */
const sameItems = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  a.length === b.length && a.every((item, i) => item === b[i])
