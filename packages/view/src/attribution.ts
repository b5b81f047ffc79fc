/// <reference lib="dom" />
/**
 * The attribution mode of a view: the text (or the gutter, or both) coloured by who wrote it,
 * with a legend and the author and time of a run on hover. Who wrote what comes from an
 * `AttributionSource` (a document's history, as `@tandem/collab`'s `connection.history` gives
 * it; the view knows only this small interface), asked only for the rows on screen: again
 * after scrolling to rows not asked yet, and when the source says its answers changed, a
 * moment later so that a burst of scrolling or changes makes one request. Text changed since
 * the last answer shows uncoloured ("not yet stored") until the next one.
 */
import type { TextEditor } from '@tandem/editor'
import { CompositeDisposable, type DisposableLike, type Point, Range } from '@tandem/text'
import {
  AttributionLegend,
  type AuthorStyle,
  describeRun,
  formatAuthorTime,
  UNKNOWN_AUTHOR_COLOR,
} from './attribution-legend.js'
import { mapRuns, mapSpan, type OffsetRun, offsetChanges } from './attribution-runs.js'
import { rectStyle, rectsForScreenRange } from './overlay.js'
import { colorForUser } from './peer-colors.js'

/**
 * One run of an `AttributionSource`'s answer: a buffer range written by `user` at `time`.
 *
 * @example const run: AttributionRun = { range: new Range([0, 0], [0, 5]), user: 'ada', time: Date.now() }
 */
export interface AttributionRun {
  /** The run in buffer coordinates (a run without one is left out). */
  readonly range: Range | null
  /** The author's id; null when the text was stored before authors were kept. */
  readonly user: string | null
  /** When it was written, in ms since the epoch, or null. */
  readonly time: number | null
}

/**
 * Who wrote what, as the view asks for it: `connection.history` of `@tandem/collab` is one.
 *
 * @example view.showAttribution(connection.history)
 */
export interface AttributionSource {
  /** The runs of one author covering `range` (a buffer range), in text order. */
  authorsOf(range: Range): Promise<readonly AttributionRun[]>
  /** Calls `callback` when answers may have changed (new text was stored). */
  onDidChangeAuthors(callback: () => void): DisposableLike
}

/**
 * How the attribution mode shows authors.
 *
 * @example view.showAttribution(connection.history, { show: 'gutter', legend: sidebar })
 */
export interface AttributionOptions {
  /** Colour the text's background, bars in the gutter, or both (default `'text'`). */
  readonly show?: 'text' | 'gutter' | 'both'
  /** The name shown for user id `user` (default: the id itself). */
  readonly nameOf?: (user: string) => string | null | undefined
  /** The colour of user `user` (default `colorForUser`, a hash of the id). */
  readonly colorOf?: (user: string) => string
  /** How a run's time is written (default: date and time to the minute). */
  readonly formatTime?: (time: number) => string
  /**
   * Where the legend goes: an element of the application, or `false` for none (default: a
   * box in the view's lower right corner).
   */
  readonly legend?: HTMLElement | false
  /** How long to wait after a scroll or a change before asking, in ms (default 100). */
  readonly delay?: number
}

/** What the attribution mode needs of its view. */
export interface AttributionHost {
  readonly editor: TextEditor
  /** The view's element (the default legend goes in it). */
  readonly element: HTMLElement
  /** The text area: the coloured runs go under its rows. */
  readonly lines: HTMLElement
  /** The gutter: its bars go in it. */
  readonly gutter: HTMLElement
  /** The hidden input that has the keyboard focus: described by the run at the cursor. */
  readonly input: HTMLElement
  /** The screen position drawn at a point of the page, for the hover. */
  screenPositionForClientPoint(x: number, y: number): Point
  /** Asks the view to draw again. */
  scheduleUpdate(): void
}

/** The rows drawn and where their boundaries are, as the view lays them out. */
export interface AttributionViewport {
  readonly startRow: number
  readonly endRow: number
  readonly lineHeight: number
  leftOf(row: number, column: number, towardEnd?: boolean): number
}

let descriptionIds = 0

/**
 * The attribution mode of one view (made by `EditorView.showAttribution`).
 *
 * @example const layer = new AttributionLayer(host, connection.history, { show: 'both' })
 */
export class AttributionLayer {
  private readonly subscriptions = new CompositeDisposable()
  private readonly runsElement: HTMLDivElement
  private readonly barsElement: HTMLDivElement
  private readonly tooltip: HTMLDivElement
  private readonly description: HTMLDivElement
  private readonly legend: AttributionLegend | null
  private readonly show: 'text' | 'gutter' | 'both'
  private readonly delay: number
  private readonly authors = new Map<string | null, AuthorStyle>()
  private runs: OffsetRun[] = []
  /** The rows last asked for, in buffer offsets; null when the next render must ask. */
  private asked: { from: number; to: number } | null = null
  /** Counts changes to the text: an answer to a question asked before one is out of date. */
  private generation = 0
  private timer: ReturnType<typeof setTimeout> | null = null
  private drawn = ''
  private previousDescribedBy: string | null
  private disposed = false

  constructor(
    private readonly host: AttributionHost,
    private readonly source: AttributionSource,
    private readonly options: AttributionOptions = {},
  ) {
    if (
      typeof source?.authorsOf !== 'function' ||
      typeof source.onDidChangeAuthors !== 'function'
    ) {
      throw new TypeError('showAttribution needs a source with authorsOf and onDidChangeAuthors')
    }
    const show = options.show ?? 'text'
    if (show !== 'text' && show !== 'gutter' && show !== 'both') {
      throw new RangeError(`show is 'text', 'gutter' or 'both', got ${String(show)}`)
    }
    this.show = show
    this.delay = options.delay ?? 100
    const document = host.element.ownerDocument
    this.runsElement = document.createElement('div')
    this.runsElement.className = 'tandem-attribution'
    this.runsElement.setAttribute('aria-hidden', 'true')
    host.lines.prepend(this.runsElement)
    this.barsElement = document.createElement('div')
    this.barsElement.className = 'tandem-author-bars'
    this.barsElement.setAttribute('aria-hidden', 'true')
    host.gutter.append(this.barsElement)
    this.tooltip = document.createElement('div')
    this.tooltip.className = 'tandem-author-tooltip'
    this.tooltip.setAttribute('role', 'tooltip')
    this.tooltip.hidden = true
    host.element.append(this.tooltip)
    this.description = document.createElement('div')
    this.description.className = 'tandem-hidden-description'
    this.description.id = `tandem-author-description-${++descriptionIds}`
    host.element.append(this.description)
    this.previousDescribedBy = host.input.getAttribute('aria-describedby')
    host.input.setAttribute(
      'aria-describedby',
      [this.previousDescribedBy, this.description.id].filter(Boolean).join(' '),
    )
    const container = options.legend === undefined ? host.element : options.legend
    this.legend = container === false ? null : new AttributionLegend(document, container)
    this.legend?.show([])
    host.element.classList.add('shows-attribution')

    const buffer = host.editor.getBuffer()
    const onMove = (event: MouseEvent) => this.hover(event)
    const onLeave = () => {
      this.tooltip.hidden = true
    }
    host.lines.addEventListener('mousemove', onMove)
    host.lines.addEventListener('mouseleave', onLeave)
    this.subscriptions.add(
      buffer.onDidChange((event) => {
        this.generation++
        const changes = offsetChanges(event.changes, (point) =>
          buffer.characterIndexForPosition(point),
        )
        this.runs = mapRuns(this.runs, changes)
        // The rows asked for move with the text; asking again waits for the source to say it
        // has stored the change (asked now, it could answer for the text before it).
        if (this.asked !== null) this.asked = mapSpan(this.asked, changes)
        host.scheduleUpdate()
      }),
      source.onDidChangeAuthors(() => {
        this.asked = null
        host.scheduleUpdate()
      }),
      host.editor.onDidChangeCursorPosition(() => host.scheduleUpdate()),
      {
        dispose: () => {
          host.lines.removeEventListener('mousemove', onMove)
          host.lines.removeEventListener('mouseleave', onLeave)
        },
      },
    )
    host.scheduleUpdate()
  }

  /** The authors named so far, in the order they were first seen: their names and colours. */
  getAuthors(): AuthorStyle[] {
    return [...this.authors.values()]
  }

  /**
   * Lays out the runs and bars of rows [`startRow`, `endRow`), asking the source (after the
   * delay) when those rows were not asked for yet; returns the function that writes them.
   */
  layout(viewport: AttributionViewport): () => void {
    const { editor } = this.host
    const buffer = editor.getBuffer()
    const { startRow, endRow, lineHeight } = viewport
    const rows = editor.bufferRangeForScreenRange(
      new Range([startRow, 0], [Math.max(startRow, endRow - 1), Number.POSITIVE_INFINITY]),
    )
    const from = buffer.characterIndexForPosition(rows.start)
    const to = buffer.characterIndexForPosition(rows.end)
    if (this.asked === null || from < this.asked.from || to > this.asked.to) this.ask(from, to)

    const runBoxes: string[] = []
    const barRows = new Map<number, { run: OffsetRun; length: number }>()
    for (const run of this.runs) {
      if (run.to <= from || run.from >= to || run.user === null) continue
      const range = editor.screenRangeForBufferRange(
        new Range(
          buffer.positionForCharacterIndex(run.from),
          buffer.positionForCharacterIndex(run.to),
        ),
      )
      const color = this.styleOf(run.user).color
      if (this.show !== 'gutter') {
        for (const rect of rectsForScreenRange(range, startRow, endRow, viewport)) {
          runBoxes.push(`${rectStyle(rect)}--tandem-author-color:${color};\u0000${run.user}`)
        }
      }
      if (this.show !== 'text') {
        const last = Math.min(range.end.row, endRow - 1)
        for (let row = Math.max(range.start.row, startRow); row <= last; row++) {
          const start = row === range.start.row ? range.start.column : 0
          const end = row === range.end.row ? range.end.column : Number.POSITIVE_INFINITY
          const length = end - start
          const best = barRows.get(row)
          if (best === undefined || length > best.length) barRows.set(row, { run, length })
        }
      }
    }
    const bars = this.barsOf(barRows, lineHeight)
    const cursor = buffer.characterIndexForPosition(editor.getCursorBufferPosition())
    const atCursor = this.runs.find((run) => run.from <= cursor && cursor < run.to) ?? null
    const description = atCursor === null ? 'Not yet stored' : this.describe(atCursor)
    return () => this.draw(runBoxes, bars, description)
  }

  /** Takes everything the mode added out of the view and stops listening. Safe twice. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    if (this.timer !== null) clearTimeout(this.timer)
    this.subscriptions.dispose()
    this.runsElement.remove()
    this.barsElement.remove()
    this.tooltip.remove()
    this.description.remove()
    this.legend?.remove()
    if (this.previousDescribedBy === null) this.host.input.removeAttribute('aria-describedby')
    else this.host.input.setAttribute('aria-describedby', this.previousDescribedBy)
    this.host.element.classList.remove('shows-attribution')
  }

  /**
   * Asks for offsets [`from`, `to`) after the delay (a later call in the meantime wins); the
   * span moves with the text meanwhile, so the question is about the text as it is then.
   */
  private ask(from: number, to: number): void {
    this.asked = { from, to }
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = null
      const asked = this.asked
      if (asked !== null) void this.request(asked.from, asked.to)
    }, this.delay)
  }

  private async request(from: number, to: number): Promise<void> {
    const buffer = this.host.editor.getBuffer()
    const generation = this.generation
    const range = new Range(
      buffer.positionForCharacterIndex(from),
      buffer.positionForCharacterIndex(to),
    )
    let answer: readonly AttributionRun[]
    try {
      answer = await this.source.authorsOf(range)
    } catch {
      // Asked again at the next scroll or change; the runs shown stay as they were.
      if (!this.disposed) this.asked = null
      return
    }
    if (this.disposed) return
    // The text changed while the question was out: its offsets may not match the text now.
    // The source says when it has stored the change, and the view asks again then.
    if (generation !== this.generation) return
    const runs: OffsetRun[] = []
    for (const { range, user, time } of answer) {
      if (range == null) continue
      const start = buffer.characterIndexForPosition(range.start)
      const end = buffer.characterIndexForPosition(range.end)
      if (end > start) runs.push({ from: start, to: end, user, time })
    }
    for (const run of runs) this.styleOf(run.user)
    this.legend?.show(this.getAuthors())
    this.runs = runs
    this.host.scheduleUpdate()
  }

  /** The name and colour of `user`, noted for the legend the first time. */
  private styleOf(user: string | null): AuthorStyle {
    let style = this.authors.get(user)
    if (style === undefined) {
      style =
        user === null
          ? { name: 'Unknown author', color: UNKNOWN_AUTHOR_COLOR }
          : {
              name: this.options.nameOf?.(user) ?? user,
              color: this.options.colorOf?.(user) ?? colorForUser(user),
            }
      this.authors.set(user, style)
    }
    return style
  }

  private describe(run: OffsetRun): string {
    const { name } = this.styleOf(run.user)
    const format = this.options.formatTime ?? formatAuthorTime
    return describeRun(name, run.time === null ? null : format(run.time))
  }

  /** One bar per stretch of rows whose longest run is by the same author. */
  private barsOf(
    rows: Map<number, { run: OffsetRun; length: number }>,
    lineHeight: number,
  ): { top: number; height: number; color: string; title: string }[] {
    const bars: { top: number; height: number; color: string; title: string }[] = []
    let previous: { row: number; user: string | null } | null = null
    for (const row of [...rows.keys()].sort((a, b) => a - b)) {
      const { run } = rows.get(row)!
      const last = bars[bars.length - 1]
      if (last !== undefined && previous?.row === row - 1 && previous.user === run.user) {
        last.height += lineHeight
      } else {
        bars.push({
          top: row * lineHeight,
          height: lineHeight,
          color: this.styleOf(run.user).color,
          title: this.describe(run),
        })
      }
      previous = { row, user: run.user }
    }
    return bars
  }

  private draw(
    runBoxes: string[],
    bars: { top: number; height: number; color: string; title: string }[],
    description: string,
  ): void {
    const signature = `${runBoxes.join('\u0001')}\u0002${bars.map((bar) => JSON.stringify(bar)).join()}`
    if (this.description.textContent !== description) this.description.textContent = description
    if (signature === this.drawn) return
    this.drawn = signature
    const document = this.runsElement.ownerDocument
    this.runsElement.replaceChildren(
      ...runBoxes.map((box) => {
        const [style, user] = box.split('\u0000') as [string, string]
        const element = document.createElement('div')
        element.className = 'tandem-author-run'
        element.style.cssText = style
        element.dataset.user = user
        return element
      }),
    )
    this.barsElement.replaceChildren(
      ...bars.map(({ top, height, color, title }) => {
        const element = document.createElement('div')
        element.className = 'tandem-author-bar'
        element.style.cssText = `top:${top}px;height:${height}px;--tandem-author-color:${color};`
        element.title = title
        return element
      }),
    )
  }

  /** Shows the author and time of the run under the pointer, beside it. */
  private hover(event: MouseEvent): void {
    const { editor, element } = this.host
    const buffer = editor.getBuffer()
    const screen = this.host.screenPositionForClientPoint(event.clientX, event.clientY)
    const lineLength = editor.lineTextForScreenRow(screen.row)?.length ?? 0
    const offset = buffer.characterIndexForPosition(editor.bufferPositionForScreenPosition(screen))
    const run =
      screen.column >= lineLength
        ? undefined
        : this.runs.find((candidate) => candidate.from <= offset && offset < candidate.to)
    if (run === undefined) {
      this.tooltip.hidden = true
      return
    }
    this.tooltip.textContent = this.describe(run)
    const box = element.getBoundingClientRect()
    this.tooltip.style.left = `${event.clientX - box.left + 12}px`
    this.tooltip.style.top = `${event.clientY - box.top + 16}px`
    this.tooltip.hidden = false
  }
}
