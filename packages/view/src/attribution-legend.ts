/// <reference lib="dom" />
/**
 * What the attribution mode shows besides the colours: the legend (a list naming each author
 * beside their colour, so that the colour is never the only cue), the tooltip naming the
 * author and time of the run under the pointer, and the words both use.
 */

/** How an author is shown: their name (or id) and colour. */
export interface AuthorStyle {
  readonly name: string
  readonly color: string
}

/** The colour of text whose author is not known (stored before authors were kept). */
export const UNKNOWN_AUTHOR_COLOR = '#8c959f'

/** The words for a run: its author's name and when it was written, if known. */
export const describeRun = (name: string, time: string | null): string =>
  time === null ? `Written by ${name}` : `Written by ${name}, ${time}`

/** Default time format: the date and the time to the minute, in the page's locale. */
export const formatAuthorTime = (time: number): string =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(time)

/** The rules of the attribution mode, appended to the view's style sheet. */
export const ATTRIBUTION_CSS = `
.tandem-editor { --tandem-attribution-alpha: 28%; }
.tandem-editor .tandem-attribution {
  position: absolute;
  inset: 0;
  z-index: 0;
  pointer-events: none;
}
.tandem-editor .tandem-author-run {
  position: absolute;
  background-color: color-mix(in srgb, var(--tandem-author-color) var(--tandem-attribution-alpha), transparent);
}
.tandem-editor .tandem-author-bars {
  position: absolute;
  top: 0;
  left: 0;
  width: 4px;
}
.tandem-editor .tandem-author-bar {
  position: absolute;
  left: 0;
  width: 4px;
  background-color: var(--tandem-author-color);
}
.tandem-editor .tandem-author-tooltip,
.tandem-attribution-legend {
  font: 12px/1.4 system-ui, sans-serif;
  color: var(--tandem-text, #1f2328);
  background: var(--tandem-background, #ffffff);
  border: 1px solid var(--tandem-gutter-border, #d0d7de);
  border-radius: 6px;
  box-shadow: 0 2px 8px rgb(0 0 0 / 15%);
}
.tandem-editor .tandem-author-tooltip {
  position: absolute;
  z-index: 6;
  padding: 2px 8px;
  white-space: nowrap;
  pointer-events: none;
}
.tandem-editor > .tandem-attribution-legend {
  position: absolute;
  right: 12px;
  bottom: 12px;
  z-index: 6;
  max-width: 40%;
}
.tandem-attribution-legend { padding: 6px 10px; cursor: default; }
.tandem-attribution-legend ul { list-style: none; margin: 0; padding: 0; }
.tandem-attribution-legend li { display: flex; align-items: center; gap: 6px; }
.tandem-attribution-legend .tandem-author-swatch {
  flex: none;
  width: 12px;
  height: 12px;
  border-radius: 3px;
  border: 1px solid rgb(0 0 0 / 25%);
  background-color: var(--tandem-author-color);
}
.tandem-attribution-legend .tandem-author-swatch.is-pending {
  background: repeating-linear-gradient(45deg, transparent 0 2px, rgb(0 0 0 / 25%) 2px 3px);
}
.tandem-hidden-description { display: none; }
`

/**
 * A list of the authors in their colours, with an entry for text not stored yet: a labelled
 * group of text items, each with a swatch beside the name.
 *
 * @example const legend = new AttributionLegend(document, host); legend.show([{ name: 'Ada', color: '#2563eb' }])
 */
export class AttributionLegend {
  /** The legend's element (a labelled group). */
  readonly element: HTMLElement
  private readonly list: HTMLUListElement
  private shown = ''

  constructor(document: Document, container: HTMLElement) {
    this.element = document.createElement('div')
    this.element.className = 'tandem-attribution-legend'
    this.element.setAttribute('role', 'group')
    this.element.setAttribute('aria-label', 'Authors')
    this.list = document.createElement('ul')
    this.element.append(this.list)
    container.append(this.element)
  }

  /** Lists `authors` in this order, then the entry for text not stored yet. */
  show(authors: readonly AuthorStyle[]): void {
    const signature = authors.map(({ name, color }) => `${name}\u0000${color}`).join('\u0001')
    if (signature === this.shown) return
    this.shown = signature
    const document = this.element.ownerDocument
    const item = (name: string, color: string | null) => {
      const li = document.createElement('li')
      const swatch = document.createElement('span')
      swatch.className = color === null ? 'tandem-author-swatch is-pending' : 'tandem-author-swatch'
      swatch.setAttribute('aria-hidden', 'true')
      if (color !== null) swatch.style.setProperty('--tandem-author-color', color)
      const label = document.createElement('span')
      label.textContent = name
      li.append(swatch, label)
      if (color !== null) li.dataset.color = color
      return li
    }
    this.list.replaceChildren(
      ...authors.map(({ name, color }) => item(name, color)),
      item('Not yet stored (no colour)', null),
    )
  }

  /** Takes the legend out of the page. */
  remove(): void {
    this.element.remove()
  }
}
