/// <reference lib="dom" />
/**
 * The elements a view is built of, and their order. A scroller fills the view's element and
 * scrolls a content box as tall as all rows, which holds the gutter beside the text. The
 * highlight and caret overlays, the composition in progress and a hidden measuring box sit in
 * the text's box, so they share its font and scroll with it; the measuring box keeps the
 * probes out of what the scroller can scroll.
 */

/** The elements of one view, made by `buildViewSkeleton`. */
export interface ViewSkeleton {
  /** The scrolling box: the one element the view adds to its element. */
  readonly scroller: HTMLDivElement
  /** As tall as all screen rows: what the scroller scrolls. */
  readonly content: HTMLDivElement
  /** The line numbers, left of the text. */
  readonly gutter: HTMLDivElement
  /** The text rows, with the overlays drawn over them. */
  readonly lines: HTMLDivElement
  /** Selections and highlight decorations, under the carets. */
  readonly highlights: HTMLDivElement
  /** Local and remote carets. */
  readonly carets: HTMLDivElement
  /** The input method's text while a composition is in progress (hidden otherwise). */
  readonly composition: HTMLDivElement
  /** A hidden box in the text's font that takes no room in the scrolled area. */
  readonly measureBox: HTMLDivElement
  /** A hidden row in the measuring box, to measure a row out of sight. */
  readonly probeRow: HTMLDivElement
}

const div = (document: Document, className: string): HTMLDivElement => {
  const element = document.createElement('div')
  element.className = className
  return element
}

/**
 * Builds a view's elements and appends them to `element`; the gutter is hidden unless
 * `lineNumbers`.
 *
 * @example const { scroller, lines } = buildViewSkeleton(host, { lineNumbers: true })
 */
export const buildViewSkeleton = (
  element: HTMLElement,
  { lineNumbers }: { readonly lineNumbers: boolean },
): ViewSkeleton => {
  const document = element.ownerDocument
  const scroller = div(document, 'tandem-scroller')
  const content = div(document, 'tandem-content')
  const gutter = div(document, 'tandem-gutter')
  const lines = div(document, 'tandem-lines')
  const highlights = div(document, 'tandem-highlights')
  const carets = div(document, 'tandem-cursors')
  const composition = div(document, 'tandem-composition')
  composition.hidden = true
  const probeRow = div(document, 'tandem-probe')
  probeRow.setAttribute('aria-hidden', 'true')
  if (!lineNumbers) gutter.style.display = 'none'
  const measureBox = div(document, 'tandem-measure-box')
  measureBox.append(probeRow)
  lines.append(highlights, carets, composition, measureBox)
  content.append(gutter, lines)
  scroller.append(content)
  element.append(scroller)
  return { scroller, content, gutter, lines, highlights, carets, composition, measureBox, probeRow }
}
