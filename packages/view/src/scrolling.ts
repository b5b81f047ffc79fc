/// <reference lib="dom" />
/**
 * What the scroller shows and where it should go: the screen rows in sight (which are the
 * ones rendered), the rows a page holds, and the scroll that brings an autoscroll request's
 * head into sight. Rows are one line high; horizontal positions are read from the text.
 */
import type { AutoscrollRequest } from '@tandem/editor'

/** Screen rows `[startRow, endRow)`. */
export interface RowSpan {
  readonly startRow: number
  readonly endRow: number
}

/**
 * The screen rows the scroller shows, `overscan` more beyond each edge, within
 * `[0, rowCount)`.
 *
 * @example rowsInSight(scroller, 20, 1000, 4) // => { startRow: 0, endRow: 34 } for a 600px scroller at the top
 */
export const rowsInSight = (
  scroller: HTMLElement,
  lineHeight: number,
  rowCount: number,
  overscan: number,
): RowSpan => {
  const top = scroller.scrollTop
  const startRow = Math.max(0, Math.floor(top / lineHeight) - overscan)
  const endRow = Math.min(
    rowCount,
    Math.ceil((top + scroller.clientHeight) / lineHeight) + overscan,
  )
  return { startRow, endRow: Math.max(startRow, endRow) }
}

/**
 * How many whole rows fit in the scroller's visible height (at least 1).
 *
 * @example rowsPerPage(scroller, 20) // => 30 for a 600px scroller
 */
export const rowsPerPage = (scroller: HTMLElement, lineHeight: number): number =>
  Math.max(1, Math.floor(scroller.clientHeight / lineHeight))

/**
 * Scrolls the rows of an autoscroll request into sight, two rows from the edges (or the
 * head's row to the middle when the request says `center`).
 *
 * @example scrollVertically(scroller, request, 20)
 */
export const scrollVertically = (
  scroller: HTMLElement,
  { screenRange, options }: AutoscrollRequest,
  lineHeight: number,
): void => {
  const viewHeight = scroller.clientHeight
  const head = options.reversed ? screenRange.start : screenRange.end
  if (options.center) {
    scroller.scrollTop = Math.max(0, head.row * lineHeight - (viewHeight - lineHeight) / 2)
    return
  }
  const margin = Math.min(2 * lineHeight, Math.max(0, (viewHeight - lineHeight) / 2))
  const top = screenRange.start.row * lineHeight - margin
  const bottom = (screenRange.end.row + 1) * lineHeight + margin
  if (top < scroller.scrollTop) scroller.scrollTop = Math.max(0, top)
  else if (bottom > scroller.scrollTop + viewHeight) scroller.scrollTop = bottom - viewHeight
}

/** The text's box in the scroller, and where its columns are drawn. */
export interface TextPlacement {
  /** The element holding the text rows (its offset is the gutter's width). */
  readonly lines: HTMLElement
  /** The average character width: the margin is four of them. */
  readonly characterWidth: number
  /** Pixels from the text's left edge to a boundary of a screen row. */
  readonly leftOf: (row: number, column: number) => number
}

/**
 * The horizontal scroll that brings an autoscroll request's head into sight with a margin
 * of four average characters, measured in its rendered row; null when it is in sight.
 *
 * @example horizontalScrollFor(scroller, request, { lines, characterWidth: 7.2, leftOf })
 */
export const horizontalScrollFor = (
  scroller: HTMLElement,
  { screenRange, options }: AutoscrollRequest,
  { lines, characterWidth, leftOf }: TextPlacement,
): number | null => {
  const head = options.reversed ? screenRange.start : screenRange.end
  const textWidth = scroller.clientWidth - lines.offsetLeft
  const left = leftOf(head.row, head.column)
  const margin = Math.min(4 * characterWidth, textWidth / 3)
  if (left - margin < scroller.scrollLeft) return Math.max(0, left - margin)
  if (left + margin > scroller.scrollLeft + textWidth) return left + margin - textWidth
  return null
}
