/// <reference lib="dom" />
/**
 * Absolutely placed boxes over or under the text (carets, selection highlights, name
 * labels), reconciled by key: each pass says which boxes should exist, and only the boxes
 * that are new, gone or different touch the DOM.
 */
import type { Range } from '@tandem/text'

/** One box: its identity, class, inline style and an optional label inside it. */
export interface OverlayBox {
  readonly key: string
  readonly className: string
  readonly style: string
  readonly label?: { readonly text: string; readonly className: string; readonly style: string }
}

/** A rectangle in the text area's pixels; `width: null` reaches the right edge. */
export interface Rect {
  readonly top: number
  readonly left: number
  readonly width: number | null
  readonly height: number
}

/** The inline style placing a box on `rect`. */
export const rectStyle = (rect: Rect): string =>
  `top:${rect.top}px;left:${rect.left}px;height:${rect.height}px;` +
  (rect.width === null ? 'right:0;' : `width:${rect.width}px;`)

/** Where rows are drawn: their height, and the measured left of a boundary in a row. */
export interface RowLayout {
  /** Height of one row in pixels. */
  readonly lineHeight: number
  /**
   * Pixels from the text's left edge to the boundary at `column` of screen row `row`; inside
   * a grapheme cluster, its start (or with `towardEnd` its end).
   */
  leftOf(row: number, column: number, towardEnd?: boolean): number
}

/**
 * The rectangles covering screen range `range`, limited to rows [`firstRow`, `endRow`):
 * at most three (first row from the start column on, the full rows between, the last row up
 * to the end column), as editors draw selections. A range ending inside a grapheme cluster
 * covers the whole cluster.
 *
 * @example rectsForScreenRange(new Range([1, 4], [3, 2]), 0, 50, layout) // 3 rects
 */
export const rectsForScreenRange = (
  range: Range,
  firstRow: number,
  endRow: number,
  layout: RowLayout,
): Rect[] => {
  const { start, end } = range
  const { lineHeight } = layout
  if (end.row < firstRow || start.row >= endRow || range.isEmpty()) return []
  if (start.row === end.row) {
    const left = layout.leftOf(start.row, start.column)
    return [
      {
        top: start.row * lineHeight,
        left,
        width: layout.leftOf(end.row, end.column, true) - left,
        height: lineHeight,
      },
    ]
  }
  const rects: Rect[] = []
  if (start.row >= firstRow) {
    rects.push({
      top: start.row * lineHeight,
      left: layout.leftOf(start.row, start.column),
      width: null,
      height: lineHeight,
    })
  }
  const middleStart = Math.max(start.row + 1, firstRow)
  const middleEnd = Math.min(end.row, endRow)
  if (middleEnd > middleStart) {
    rects.push({
      top: middleStart * lineHeight,
      left: 0,
      width: null,
      height: (middleEnd - middleStart) * lineHeight,
    })
  }
  if (end.row < endRow && end.column > 0) {
    rects.push({
      top: end.row * lineHeight,
      left: 0,
      width: layout.leftOf(end.row, end.column, true),
      height: lineHeight,
    })
  }
  return rects
}

/** Keeps a box's label element (so that a label fading out is the same element throughout). */
const updateLabel = (element: HTMLElement, label: OverlayBox['label']): void => {
  let shown = element.firstElementChild as HTMLElement | null
  if (label === undefined) {
    shown?.remove()
    return
  }
  if (shown === null) {
    shown = element.ownerDocument.createElement('div')
    element.appendChild(shown)
  }
  if (shown.className !== label.className) shown.className = label.className
  if (shown.style.cssText !== label.style) shown.style.cssText = label.style
  if (shown.textContent !== label.text) shown.textContent = label.text
}

interface Shown {
  readonly element: HTMLElement
  signature: string
}

const signatureOf = (box: OverlayBox): string =>
  `${box.className}\u0000${box.style}\u0000${box.label?.text ?? ''}\u0000${box.label?.className ?? ''}\u0000${box.label?.style ?? ''}`

/**
 * A set of boxes in one container element.
 *
 * @example overlay.update([{ key: 'caret:1', className: 'tandem-cursor', style: 'top:0;left:8px;height:20px' }])
 */
export class Overlay {
  private readonly shown = new Map<string, Shown>()

  constructor(readonly element: HTMLElement) {}

  /** Makes the container hold exactly `boxes`. */
  update(boxes: readonly OverlayBox[]): void {
    const wanted = new Set<string>()
    for (const box of boxes) {
      wanted.add(box.key)
      const signature = signatureOf(box)
      let shown = this.shown.get(box.key)
      if (shown === undefined) {
        shown = { element: this.element.ownerDocument.createElement('div'), signature: '' }
        this.shown.set(box.key, shown)
        this.element.appendChild(shown.element)
      }
      if (shown.signature === signature) continue
      shown.signature = signature
      const { element } = shown
      element.className = box.className
      element.style.cssText = box.style
      updateLabel(element, box.label)
    }
    for (const [key, shown] of this.shown) {
      if (!wanted.has(key)) {
        shown.element.remove()
        this.shown.delete(key)
      }
    }
  }
}
