/// <reference lib="dom" />
/**
 * `EditorView`: a TextEditor in the DOM. The screen rows come from the editor's display
 * layer (folds, tabs, soft wrap) and are virtualized: only the rows in sight, plus a few,
 * have elements, placed absolutely in a box as tall as all rows. Everything is drawn from
 * events (display changes, selection and decoration changes, scrolling, resizing), batched
 * into one update per animation frame; an update touches only the rows that changed.
 */
import type { AutoscrollRequest, TextEditor } from '@tandem/editor'
import { CompositeDisposable, Disposable, Point, type PointLike } from '@tandem/text'
import { ClipboardEvents } from './clipboard.js'
import { type CommandContext, EDITOR_COMMANDS } from './commands.js'
import { DecorationWatcher, decorationBoxes } from './decorations-layer.js'
import { Gutter } from './gutter.js'
import { TextInput } from './input.js'
import { buildKeymap, type Keymap } from './keymap.js'
import { LinesLayer } from './lines.js'
import { measureText, metricsDiffer, type TextMetrics } from './measure.js'
import { MouseInput, screenPositionForPixel } from './mouse.js'
import { Overlay } from './overlay.js'
import {
  checkDelay,
  DEFAULT_IDLE_DELAY,
  DEFAULT_LABEL_FADE_DELAY,
  PeerActivity,
} from './peer-activity.js'
import { PeerAnnouncer } from './peer-announcer.js'
import { installStyles } from './styles.js'

/** Options of `new EditorView`. */
export interface EditorViewOptions {
  /** Show the gutter with line numbers (default true). */
  lineNumbers?: boolean
  /** Turn the editor's soft wrap on or off; it then follows the element's width. */
  softWrapped?: boolean
  /** Blink the carets while focused (default true). */
  cursorBlink?: boolean
  /** Rows rendered beyond each edge of the visible ones (default 4). */
  overscanRows?: number
  /** Key bindings over Atom's defaults (`null` unbinds), e.g. `{ 'ctrl-d': 'editor:delete-line' }`. */
  keymap?: Keymap
  /** The editor's accessible name, which screen readers say on focus (default `'Editor'`). */
  label?: string
  /**
   * How long a remote peer's name label stays up after the peer moved or typed, in
   * milliseconds (default 2000); hovering over its caret shows it again.
   */
  labelFadeDelay?: number
  /**
   * How long a remote peer goes without moving or typing before its caret dims, in
   * milliseconds (default 30000).
   */
  idleDelay?: number
}

/** A pixel position in the text area (0, 0 is the top left of the first row's text). */
export interface PixelPosition {
  /** Pixels down from the top of the first row. */
  readonly top: number
  /** Pixels right from the start of the text. */
  readonly left: number
}

const isElement = (value: unknown): value is HTMLElement =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as HTMLElement).appendChild === 'function' &&
  typeof (value as HTMLElement).ownerDocument === 'object'

const div = (document: Document, className: string): HTMLDivElement => {
  const element = document.createElement('div')
  element.className = className
  return element
}

/**
 * Shows `editor` in `element` (which it fills; give it a size) and takes the user's input.
 *
 * @example
 * const view = new EditorView(new TextEditor({ text: 'hello' }), document.querySelector('#editor'))
 * view.focus()
 * view.destroy()
 */
export class EditorView {
  /** The element the view fills. */
  readonly element: HTMLElement
  private readonly scroller: HTMLDivElement
  private readonly content: HTMLDivElement
  private readonly gutterElement: HTMLDivElement
  private readonly linesElement: HTMLDivElement
  private readonly compositionElement: HTMLDivElement
  private readonly lines: LinesLayer
  private readonly gutter: Gutter
  private readonly highlights: Overlay
  private readonly carets: Overlay
  private readonly input: TextInput
  private readonly mouse: MouseInput
  private readonly clipboard: ClipboardEvents
  private readonly decorations: DecorationWatcher
  private readonly activity: PeerActivity
  private readonly announcer: PeerAnnouncer
  private readonly keymap: Map<string, string>
  private readonly subscriptions = new CompositeDisposable()
  private readonly overscan: number
  private readonly commandContext: CommandContext
  private metrics: TextMetrics
  private frame: number | null = null
  private autoscrollRequest: AutoscrollRequest | null = null
  private widthInChars = 0
  private contentHeight = -1
  private longestRow = 0
  private linesWidth = -1
  private inputAt = ''
  private destroyed = false

  constructor(
    /** The editor shown. */
    readonly editor: TextEditor,
    element: HTMLElement,
    options: EditorViewOptions = {},
  ) {
    if (typeof editor?.getScreenLineCount !== 'function' || editor.isDestroyed()) {
      throw new TypeError('EditorView needs a live TextEditor')
    }
    if (!isElement(element)) throw new TypeError(`EditorView needs an element, got ${element}`)
    const overscan = options.overscanRows ?? 4
    if (!Number.isInteger(overscan) || overscan < 0) {
      throw new RangeError(`overscanRows must be a whole number >= 0, got ${overscan}`)
    }
    const label = options.label ?? 'Editor'
    if (typeof label !== 'string' || label.trim() === '') {
      throw new TypeError(`label must be a non-empty string, got ${String(label)}`)
    }
    const delays = {
      labelFadeDelay: checkDelay(
        'labelFadeDelay',
        options.labelFadeDelay,
        DEFAULT_LABEL_FADE_DELAY,
      ),
      idleDelay: checkDelay('idleDelay', options.idleDelay, DEFAULT_IDLE_DELAY),
    }
    this.overscan = overscan
    this.element = element
    this.keymap = buildKeymap(options.keymap)
    this.commandContext = { editor, rowsPerPage: () => this.getRowsPerPage() }
    const document = element.ownerDocument
    installStyles(document)
    element.classList.add('tandem-editor')
    if (options.cursorBlink ?? true) element.classList.add('cursor-blink')

    this.scroller = div(document, 'tandem-scroller')
    this.content = div(document, 'tandem-content')
    this.gutterElement = div(document, 'tandem-gutter')
    this.linesElement = div(document, 'tandem-lines')
    const highlightsElement = div(document, 'tandem-highlights')
    const caretsElement = div(document, 'tandem-cursors')
    this.compositionElement = div(document, 'tandem-composition')
    this.compositionElement.hidden = true
    if (options.lineNumbers === false) this.gutterElement.style.display = 'none'
    this.linesElement.append(highlightsElement, caretsElement, this.compositionElement)
    this.content.append(this.gutterElement, this.linesElement)
    this.scroller.append(this.content)
    element.append(this.scroller)

    this.metrics = measureText(this.linesElement)
    const foldCharacter = editor.displayLayer.getSettings().foldCharacter
    this.lines = new LinesLayer(this.linesElement, foldCharacter)
    this.gutter = new Gutter(this.gutterElement)
    this.gutter.setLineCount(editor.getLineCount())
    this.highlights = new Overlay(highlightsElement)
    this.carets = new Overlay(caretsElement)
    this.input = new TextInput(
      {
        editor,
        commandForKeystroke: (keystroke) => this.keymap.get(keystroke),
        runCommand: (name) => this.runCommand(name),
        showComposition: (text) => this.showComposition(text),
        setFocused: (focused) => this.element.classList.toggle('is-focused', focused),
      },
      this.linesElement,
      label,
    )
    this.mouse = new MouseInput(
      {
        editor,
        screenPositionForClientPoint: (x, y) => this.screenPositionForClientPoint(x, y),
        focus: () => this.focus(),
      },
      this.linesElement,
    )
    this.clipboard = new ClipboardEvents(editor, this.input.textarea)
    this.decorations = new DecorationWatcher(editor, () => this.scheduleUpdate())
    this.activity = new PeerActivity(document.defaultView, delays, () => this.scheduleUpdate())
    this.announcer = new PeerAnnouncer(element)

    const display = editor.displayLayer
    const onScroll = () => this.scheduleUpdate()
    this.scroller.addEventListener('scroll', onScroll, { passive: true })
    const view = document.defaultView
    const resizeObserver =
      view?.ResizeObserver === undefined ? null : new view.ResizeObserver(() => this.didResize())
    resizeObserver?.observe(this.scroller)
    const fonts = document.fonts
    const onFonts = () => this.remeasure()
    fonts?.addEventListener('loadingdone', onFonts)
    this.subscriptions.add(
      display.onDidChange((changes) => {
        this.lines.applyChanges(changes)
        this.scheduleUpdate()
      }),
      display.onDidReset(() => {
        this.lines.clear()
        this.longestRow = 0
        this.scheduleUpdate()
      }),
      editor.onDidRequestAutoscroll((request) => {
        this.autoscrollRequest = request
        this.scheduleUpdate()
      }),
      editor.onDidDestroy(() => this.destroy()),
      new Disposable(() => {
        this.scroller.removeEventListener('scroll', onScroll)
        resizeObserver?.disconnect()
        fonts?.removeEventListener('loadingdone', onFonts)
      }),
    )
    this.updateWrapWidth()
    if (options.softWrapped !== undefined) editor.setSoftWrapped(options.softWrapped)
    this.updateSync()
  }

  // Focus and commands

  /** Gives the editor the keyboard focus. */
  focus(): void {
    this.input.focus()
  }

  /** Whether the editor has the keyboard focus. */
  hasFocus(): boolean {
    return this.input.hasFocus()
  }

  /**
   * Runs a command by name (`editor:delete-line`, `core:page-down`, ...), as its key binding
   * would. Throws a RangeError for an unknown name; returns false when the command did not
   * apply (`editor:consolidate-selections` with one selection).
   *
   * @example view.dispatchCommand('editor:add-selection-below')
   */
  dispatchCommand(name: string): boolean {
    if (typeof name !== 'string' || !Object.hasOwn(EDITOR_COMMANDS, name)) {
      throw new RangeError(`unknown editor command: ${String(name)}`)
    }
    return this.runCommand(name)
  }

  /** The command bound to a keystroke in Atom's notation (`ctrl-shift-k`), if any. */
  commandForKeystroke(keystroke: string): string | undefined {
    return this.keymap.get(keystroke)
  }

  // Geometry

  /** The character width and line height in CSS pixels. */
  getMetrics(): TextMetrics {
    return this.metrics
  }

  /** How many whole rows fit in the visible height (at least 1): the page-up/down step. */
  getRowsPerPage(): number {
    return Math.max(1, Math.floor(this.scroller.clientHeight / this.metrics.lineHeight))
  }

  /** The screen rows that have elements now: [first, end). */
  getRenderedRowRange(): [number, number] {
    const { startRow, endRow } = this.rowsInSight()
    return [startRow, endRow]
  }

  /** Where a screen position is drawn, in the text area's pixels. */
  pixelPositionForScreenPosition(position: PointLike): PixelPosition {
    const point = this.editor.clipScreenPosition(Point.fromObject(position))
    return {
      top: point.row * this.metrics.lineHeight,
      left: point.column * this.metrics.characterWidth,
    }
  }

  /** The screen position drawn at a pixel of the text area (clipped, nearest column). */
  screenPositionForPixelPosition({ top, left }: PixelPosition): Point {
    const { characterWidth, lineHeight } = this.metrics
    return screenPositionForPixel(this.editor, left, top, characterWidth, lineHeight)
  }

  /** The vertical scroll offset in pixels. */
  getScrollTop(): number {
    return this.scroller.scrollTop
  }

  /** Scrolls vertically to `top` pixels (rows render on the next update). */
  setScrollTop(top: number): void {
    this.scroller.scrollTop = top
  }

  // Updating

  /** Asks for an update at the next animation frame (several requests make one update). */
  scheduleUpdate(): void {
    if (this.destroyed || this.frame !== null) return
    const window = this.element.ownerDocument.defaultView
    if (window === null) return
    this.frame = window.requestAnimationFrame(() => {
      this.frame = null
      this.updateSync()
    })
  }

  /** Brings the DOM up to date now instead of at the next frame. */
  updateSync(): void {
    if (this.destroyed) return
    if (this.frame !== null) {
      this.element.ownerDocument.defaultView?.cancelAnimationFrame(this.frame)
      this.frame = null
    }
    const { editor } = this
    if (this.gutter.setLineCount(editor.getLineCount())) this.updateWrapWidth()
    const { characterWidth, lineHeight } = this.metrics
    const height = editor.getScreenLineCount() * lineHeight
    if (height !== this.contentHeight) {
      this.contentHeight = height
      this.content.style.height = `${height}px`
    }
    this.applyAutoscroll()
    const { startRow, endRow } = this.rowsInSight()
    const screenLines = editor.displayLayer.getScreenLines(startRow, endRow)
    const lineAt = (row: number) => screenLines[row - startRow]
    const longest = this.lines.render(
      startRow,
      endRow,
      (row) => lineAt(row)?.lineText ?? '',
      lineHeight,
    )
    this.longestRow = Math.max(this.longestRow, longest)
    const width = Math.ceil((this.longestRow + 2) * characterWidth)
    if (width !== this.linesWidth) {
      this.linesWidth = width
      this.linesElement.style.width = `${width}px`
    }

    const cursorRows = new Set<number>()
    for (const position of editor.getCursorScreenPositions()) cursorRows.add(position.row)
    const foldCharacter = editor.displayLayer.getSettings().foldCharacter
    this.gutter.render(
      startRow,
      endRow,
      (row) => {
        const line = lineAt(row)
        const start = line?.bufferRange.start
        return {
          label: start === undefined || start.column !== 0 ? '' : String(start.row + 1),
          cursorLine: cursorRows.has(row),
          folded: line?.lineText.includes(foldCharacter) ?? false,
        }
      },
      lineHeight,
    )

    const boxes = decorationBoxes(
      editor,
      { startRow, endRow, metrics: this.metrics },
      this.activity,
    )
    this.highlights.update(boxes.highlights)
    this.carets.update(boxes.carets)
    this.announcer.update(boxes.peers)
    this.placeInput()
    this.input.sync()
  }

  /** Removes the view from the element and stops listening. The editor stays. Safe twice. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    if (this.frame !== null) {
      this.element.ownerDocument.defaultView?.cancelAnimationFrame(this.frame)
      this.frame = null
    }
    this.subscriptions.dispose()
    this.decorations.dispose()
    this.activity.dispose()
    this.announcer.dispose()
    this.clipboard.dispose()
    this.mouse.dispose()
    this.input.dispose()
    this.scroller.remove()
    this.element.classList.remove('tandem-editor', 'cursor-blink', 'is-focused')
  }

  // Internals

  private runCommand(name: string): boolean {
    const command = EDITOR_COMMANDS[name]
    if (command === undefined) return false
    return command(this.commandContext) !== false
  }

  private rowsInSight(): { startRow: number; endRow: number } {
    const { lineHeight } = this.metrics
    const top = this.scroller.scrollTop
    const rowCount = this.editor.getScreenLineCount()
    const startRow = Math.max(0, Math.floor(top / lineHeight) - this.overscan)
    const endRow = Math.min(
      rowCount,
      Math.ceil((top + this.scroller.clientHeight) / lineHeight) + this.overscan,
    )
    return { startRow, endRow: Math.max(startRow, endRow) }
  }

  /** Scrolls the range of the last autoscroll request into sight, two rows from the edges. */
  private applyAutoscroll(): void {
    const request = this.autoscrollRequest
    if (request === null) return
    this.autoscrollRequest = null
    const { characterWidth, lineHeight } = this.metrics
    const { screenRange, options } = request
    const scroller = this.scroller
    const viewHeight = scroller.clientHeight
    const head = options.reversed ? screenRange.start : screenRange.end
    if (options.center) {
      scroller.scrollTop = Math.max(0, head.row * lineHeight - (viewHeight - lineHeight) / 2)
    } else {
      const margin = Math.min(2 * lineHeight, Math.max(0, (viewHeight - lineHeight) / 2))
      const top = screenRange.start.row * lineHeight - margin
      const bottom = (screenRange.end.row + 1) * lineHeight + margin
      if (top < scroller.scrollTop) scroller.scrollTop = Math.max(0, top)
      else if (bottom > scroller.scrollTop + viewHeight) scroller.scrollTop = bottom - viewHeight
    }
    const textLeft = this.linesElement.offsetLeft
    const textWidth = scroller.clientWidth - textLeft
    const left = head.column * characterWidth
    const margin = Math.min(4 * characterWidth, textWidth / 3)
    if (left - margin < scroller.scrollLeft) scroller.scrollLeft = Math.max(0, left - margin)
    else if (left + margin > scroller.scrollLeft + textWidth) {
      scroller.scrollLeft = left + margin - textWidth
    }
  }

  /** Moves the hidden input (and a composition in progress) to the last cursor. */
  private placeInput(): void {
    const position = this.editor.getCursorScreenPosition()
    const { characterWidth, lineHeight } = this.metrics
    const style = `top:${position.row * lineHeight}px;left:${position.column * characterWidth}px;height:${lineHeight}px;`
    if (style === this.inputAt) return
    this.inputAt = style
    this.input.textarea.style.cssText = style
    this.compositionElement.style.cssText = style
  }

  private showComposition(text: string | null): void {
    this.compositionElement.hidden = text === null || text === ''
    this.compositionElement.textContent = text ?? ''
  }

  private didResize(): void {
    this.remeasure()
    this.updateWrapWidth()
    this.scheduleUpdate()
  }

  private remeasure(): void {
    const metrics = measureText(this.linesElement)
    if (!metricsDiffer(metrics, this.metrics)) return
    this.metrics = metrics
    this.inputAt = ''
    this.longestRow = 0
    this.updateWrapWidth()
    this.scheduleUpdate()
  }

  /** Tells the editor how many columns fit, so soft wrap follows the element's width. */
  private updateWrapWidth(): void {
    const clientWidth = this.scroller.clientWidth
    if (clientWidth === 0) return
    const { characterWidth } = this.metrics
    const available = clientWidth - this.linesElement.offsetLeft - characterWidth
    const columns = Math.max(1, Math.floor(available / characterWidth))
    if (columns === this.widthInChars) return
    this.widthInChars = columns
    this.editor.setEditorWidthInChars(columns)
  }

  private screenPositionForClientPoint(x: number, y: number): Point {
    const rect = this.linesElement.getBoundingClientRect()
    return this.screenPositionForPixelPosition({ top: y - rect.top, left: x - rect.left })
  }
}
