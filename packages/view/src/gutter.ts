/// <reference lib="dom" />
/**
 * The gutter: a line number beside the first screen row of each buffer row (soft-wrapped
 * continuation rows show none), the cursor rows emphasized, folded rows marked, and rows that
 * can fold marked for the pointer (a click there folds or unfolds them). Only the visible rows
 * have elements; an element is touched only when what it shows changed.
 */

/** What the gutter shows beside one screen row. */
export interface GutterRow {
  /** The line number (1-based), or '' on a wrapped continuation row. */
  readonly label: string
  /** Whether a cursor is on the row. */
  readonly cursorLine: boolean
  /** Whether the row starts a fold. */
  readonly folded: boolean
  /** Whether the row can start a fold (the language says so). */
  readonly foldable?: boolean
}

interface CachedNumber {
  readonly element: HTMLDivElement
  key: string
  top: number
}

/** Class of a line number element. */
export const LINE_NUMBER_CLASS = 'tandem-line-number'

/**
 * The line numbers of the visible rows.
 *
 * @example gutter.render(0, 40, (row) => ({ label: String(row + 1), cursorLine: false, folded: false }), 21)
 */
export class Gutter {
  private readonly rows = new Map<number, CachedNumber>()
  private digits = 0

  constructor(readonly element: HTMLElement) {}

  /**
   * Sizes the gutter for `lineCount` lines; returns whether its width changed (the text
   * area then has another width, so soft wrap must follow).
   */
  setLineCount(lineCount: number): boolean {
    const digits = Math.max(2, String(lineCount).length)
    if (digits === this.digits) return false
    this.digits = digits
    // Digits plus the padding on both sides (1.4em ~ 2.8ch in a monospace font).
    this.element.style.width = `calc(${digits}ch + 1.4em + 1px)`
    return true
  }

  /** Shows the numbers of rows [`start`, `end`). */
  render(start: number, end: number, rowAt: (row: number) => GutterRow, lineHeight: number): void {
    for (const [row, cached] of this.rows) {
      if (row < start || row >= end) {
        cached.element.remove()
        this.rows.delete(row)
      }
    }
    for (let row = start; row < end; row++) {
      const { label, cursorLine, folded, foldable = false } = rowAt(row)
      let cached = this.rows.get(row)
      if (cached === undefined) {
        const element = this.element.ownerDocument.createElement('div')
        cached = { element, key: '', top: -1 }
        this.rows.set(row, cached)
        this.element.appendChild(element)
      }
      const key = `${label}|${cursorLine}|${folded}|${foldable}`
      if (cached.key !== key) {
        cached.key = key
        cached.element.textContent = label
        cached.element.className =
          LINE_NUMBER_CLASS +
          (cursorLine ? ' cursor-line' : '') +
          (folded ? ' folded' : foldable ? ' foldable' : '')
      }
      const top = row * lineHeight
      if (cached.top !== top) {
        cached.top = top
        cached.element.style.top = `${top}px`
        cached.element.style.height = `${lineHeight}px`
      }
    }
  }

  /**
   * The buffer row whose fold marker `target` (an element of the gutter) is, or null when it
   * is none: a line number of a folded or foldable row.
   */
  foldRowAt(target: EventTarget | null): number | null {
    const element = (target as Element | null)?.closest?.(
      `.${LINE_NUMBER_CLASS}.folded, .${LINE_NUMBER_CLASS}.foldable`,
    )
    if (element == null || !this.element.contains(element)) return null
    const line = Number(element.textContent)
    return Number.isInteger(line) && line > 0 ? line - 1 : null
  }

  /** Removes every number. */
  clear(): void {
    for (const cached of this.rows.values()) cached.element.remove()
    this.rows.clear()
  }
}
