/// <reference lib="dom" />
/**
 * `EditorView`: a TextEditor in the DOM. The screen rows come from the editor's display
 * layer (folds, tabs, soft wrap) and are virtualized: only the rows in sight, plus a few,
 * have elements, placed absolutely in a box as tall as all rows. Everything is drawn from
 * events (display changes, selection and decoration changes, scrolling, resizing), batched
 * into one update per animation frame; an update touches only the rows that changed.
 *
 * Rows are a fixed height; every horizontal position (carets, selections, clicks, scrolling
 * to the cursor, the input method's box) is read from the rendered text itself, so wide
 * characters, emoji and proportional fonts are placed where the browser drew them. An update
 * writes the rows first, then reads positions, then writes the boxes: one layout per frame.
 */
import { ratioForCharacter } from '@tandem/display'
import { type AutoscrollRequest, OccurrenceSelector, type TextEditor } from '@tandem/editor'
import { CompositeDisposable, Disposable, Point, type PointLike } from '@tandem/text'
import { BracketHighlight } from './bracket-highlight.js'
import { fontWidths } from './character-widths.js'
import { ChordInput } from './chord-input.js'
import { ClipboardEvents } from './clipboard.js'
import { type CommandContext, EDITOR_COMMANDS } from './commands.js'
import { DecorationWatcher, decorationBoxes } from './decorations-layer.js'
import { FindBar } from './find-bar.js'
import { GoToLineBox } from './go-to-line-box.js'
import { Gutter } from './gutter.js'
import { classNameForScopes, rowContent } from './highlight.js'
import { IdleTokenizing } from './idle-tokenizing.js'
import { TextInput } from './input.js'
import { buildKeymap, type Keymap } from './keymap.js'
import { LinesLayer } from './lines.js'
import { createMeasureProbe, measureText, metricsDiffer, type TextMetrics } from './measure.js'
import { MouseInput, screenPositionForPixel } from './mouse.js'
import { Overlay } from './overlay.js'
import {
  checkDelay,
  DEFAULT_IDLE_DELAY,
  DEFAULT_LABEL_FADE_DELAY,
  PeerActivity,
} from './peer-activity.js'
import { PeerAnnouncer } from './peer-announcer.js'
import { RowGeometry } from './row-geometry.js'
import { installStyles } from './styles.js'
import { applyTheme, assertTheme, type EditorTheme } from './theme.js'
import { VIEW_COMMANDS, type ViewCommandHost } from './view-commands.js'
import { FontZoom } from './zoom.js'

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
  /**
   * Key bindings over Atom's defaults (`null` unbinds), e.g. `{ 'ctrl-d': 'editor:delete-line' }`;
   * a chord's keystrokes are separated by spaces (`'ctrl-k ctrl-t': 'editor:transpose'`).
   */
  keymap?: Keymap
  /**
   * Close brackets and quotes as they are typed, and type over the closing one (default
   * true). The bracket pair at the cursor is highlighted either way.
   */
  autoCloseBrackets?: boolean
  /** The colours: `light`, `dark`, or `auto` (the default) to follow the system's preference. */
  theme?: EditorTheme
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

/** How long an update may tokenize the rows an edit left to do, in milliseconds. */
const TOKENIZE_MILLISECONDS_PER_FRAME = 4

/** Text whose every character a monospace font draws at its average width. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/** The shortest time between two updates drawn in input events, in milliseconds. */
const INPUT_UPDATE_INTERVAL = 8

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
  private readonly probeElement: HTMLDivElement
  private readonly measureProbe: HTMLElement
  private probe: RowGeometry | null = null
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
  private readonly chords: ChordInput
  private readonly findBar: FindBar
  private readonly goToLineBox: GoToLineBox
  private readonly fontZoom: FontZoom
  private readonly viewCommands: ViewCommandHost
  private occurrenceSelector: OccurrenceSelector | null = null
  private readonly brackets: BracketHighlight
  /** Whether the pointer is over the gutter, whose foldable rows then show a fold marker. */
  private gutterHovered = false
  private readonly subscriptions = new CompositeDisposable()
  private readonly overscan: number
  private readonly commandContext: CommandContext
  private metrics: TextMetrics
  private frame: number | null = null
  private autoscrollRequest: AutoscrollRequest | null = null
  private widthInChars = 0
  private contentHeight = -1
  private widestRow = 0
  private linesWidth = -1
  private pixelRatio = 1
  /** Whether the view gave the display layer a proportional font's character widths. */
  private widthsSet = false
  /** Whether the font is monospace, so an ASCII row's width is its length in characters. */
  private monospace = false
  private inputAt = ''
  private destroyed = false
  private theme: EditorTheme
  private languageSubscriptions: CompositeDisposable | null = null
  private rootScopeClasses: string[] = []
  /** Whether the rows are being rendered (tokenizing them then needs no new update). */
  private rendering = false
  private lastInputUpdate = Number.NEGATIVE_INFINITY
  private readonly idleTokenizing: IdleTokenizing | null
  /** The buffer rows the rendered screen rows show, first to last. */
  private shownBufferRows = { first: 0, last: -1 }

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
    const theme = options.theme ?? 'auto'
    assertTheme(theme)
    this.theme = theme
    this.element = element
    this.keymap = buildKeymap(options.keymap)
    this.commandContext = { editor, rowsPerPage: () => this.getRowsPerPage() }
    const document = element.ownerDocument
    installStyles(document)
    element.classList.add('tandem-editor')
    applyTheme(element, theme)
    if (options.cursorBlink ?? true) element.classList.add('cursor-blink')

    this.scroller = div(document, 'tandem-scroller')
    this.content = div(document, 'tandem-content')
    this.gutterElement = div(document, 'tandem-gutter')
    this.linesElement = div(document, 'tandem-lines')
    const highlightsElement = div(document, 'tandem-highlights')
    const caretsElement = div(document, 'tandem-cursors')
    this.compositionElement = div(document, 'tandem-composition')
    this.compositionElement.hidden = true
    this.probeElement = div(document, 'tandem-probe')
    this.probeElement.setAttribute('aria-hidden', 'true')
    if (options.lineNumbers === false) this.gutterElement.style.display = 'none'
    // Probes measure in the text's font without widening what the scroller can scroll.
    const measureBox = div(document, 'tandem-measure-box')
    measureBox.append(this.probeElement)
    this.linesElement.append(highlightsElement, caretsElement, this.compositionElement, measureBox)
    this.content.append(this.gutterElement, this.linesElement)
    this.scroller.append(this.content)
    element.append(this.scroller)

    this.measureProbe = createMeasureProbe(measureBox)
    this.metrics = measureText(this.measureProbe)
    this.pixelRatio = document.defaultView?.devicePixelRatio ?? 1
    const foldCharacter = editor.displayLayer.getSettings().foldCharacter
    this.lines = new LinesLayer(this.linesElement, foldCharacter)
    this.gutter = new Gutter(this.gutterElement)
    this.gutter.setLineCount(editor.getLineCount())
    this.highlights = new Overlay(highlightsElement)
    this.carets = new Overlay(caretsElement)
    this.input = new TextInput(
      {
        editor,
        resolveKeystroke: (keystroke) => this.chords.press(keystroke),
        didBlur: () => this.chords.reset(),
        runCommand: (name) => this.runCommand(name),
        showComposition: (text) => this.showComposition(text),
        didChangeEditor: () => this.drawInput(),
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
    const window = document.defaultView
    this.idleTokenizing = window === null ? null : new IdleTokenizing(window, editor)
    this.activity = new PeerActivity(document.defaultView, delays, () => this.scheduleUpdate())
    this.announcer = new PeerAnnouncer(element)
    const focusEditor = () => this.focus()
    this.findBar = new FindBar(
      {
        editor,
        focusEditor,
        setTopInset: (pixels) => {
          this.scroller.style.top = pixels === 0 ? '' : `${pixels}px`
          this.didResize()
        },
      },
      element,
    )
    this.goToLineBox = new GoToLineBox({ editor, focusEditor }, element)
    this.fontZoom = new FontZoom(element)
    this.chords = new ChordInput(this.keymap, element, {
      runCommand: (name) => {
        const ran = this.runCommand(name)
        if (ran) this.updateSync()
        return ran
      },
      say: (text) => this.announcer.say(text),
    })
    this.brackets = new BracketHighlight(editor, options.autoCloseBrackets ?? true, window)
    this.viewCommands = {
      findBar: this.findBar,
      goToLine: this.goToLineBox,
      brackets: this.brackets.matcher,
      occurrences: () => {
        this.occurrenceSelector ??= new OccurrenceSelector(editor)
        return this.occurrenceSelector
      },
      zoom: (direction) => {
        if (direction === 'reset') this.fontZoom.reset()
        else this.fontZoom.zoom(direction)
        this.remeasure(false)
        this.updateSync()
      },
    }

    const display = editor.displayLayer
    // A click on a foldable row's number folds it; on a folded row's, unfolds it (as Atom's).
    const onGutterDown = (event: MouseEvent) => {
      const row = event.button === 0 ? this.gutter.foldRowAt(event.target) : null
      if (row === null) return
      event.preventDefault()
      editor.toggleFoldAtBufferRow(row)
      this.focus()
    }
    this.gutterElement.addEventListener('mousedown', onGutterDown)
    const onGutterHover = (event: MouseEvent) => {
      this.gutterHovered = event.type === 'mouseenter'
      this.scheduleUpdate()
    }
    this.gutterElement.addEventListener('mouseenter', onGutterHover)
    this.gutterElement.addEventListener('mouseleave', onGutterHover)
    const onScroll = () => this.scheduleUpdate()
    this.scroller.addEventListener('scroll', onScroll, { passive: true })
    const view = document.defaultView
    const resizeObserver =
      view?.ResizeObserver === undefined ? null : new view.ResizeObserver(() => this.didResize())
    resizeObserver?.observe(this.scroller)
    // The probe changes size when the font does (a new family, size or line height).
    const fontObserver =
      view?.ResizeObserver === undefined
        ? null
        : new view.ResizeObserver(() => this.remeasure(false))
    fontObserver?.observe(this.measureProbe)
    const fonts = document.fonts
    const onFonts = () => this.remeasure(true)
    fonts?.addEventListener('loadingdone', onFonts)
    // Browser zoom changes the device pixel ratio, and with it how glyphs are fitted to pixels.
    const onWindowResize = () => this.remeasure(false)
    view?.addEventListener('resize', onWindowResize)
    this.subscriptions.add(
      display.onDidChange((changes) => {
        this.lines.applyChanges(changes)
        this.scheduleUpdate()
      }),
      display.onDidReset(() => {
        this.lines.clear()
        this.widestRow = 0
        this.scheduleUpdate()
      }),
      editor.onDidRequestAutoscroll((request) => {
        this.autoscrollRequest = request
        this.scheduleUpdate()
      }),
      editor.onDidDestroy(() => this.destroy()),
      editor.onDidChangeGrammar(() => this.watchLanguage()),
      new Disposable(() => {
        this.scroller.removeEventListener('scroll', onScroll)
        this.gutterElement.removeEventListener('mousedown', onGutterDown)
        this.gutterElement.removeEventListener('mouseenter', onGutterHover)
        this.gutterElement.removeEventListener('mouseleave', onGutterHover)
        resizeObserver?.disconnect()
        fontObserver?.disconnect()
        fonts?.removeEventListener('loadingdone', onFonts)
        view?.removeEventListener('resize', onWindowResize)
      }),
    )
    this.watchLanguage()
    this.updateCharacterWidths()
    this.updateWrapWidth()
    if (options.softWrapped !== undefined) editor.setSoftWrapped(options.softWrapped)
    this.updateSync()
  }

  // Theme

  /** The theme shown: `light`, `dark`, or `auto` (following the system's preference). */
  getTheme(): EditorTheme {
    return this.theme
  }

  /**
   * Shows the `light` or `dark` theme, or `auto` to follow the system's preference; anything
   * else is a RangeError.
   *
   * @example view.setTheme('dark')
   */
  setTheme(theme: EditorTheme): void {
    assertTheme(theme)
    this.theme = theme
    applyTheme(this.element, theme)
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
    if (
      typeof name !== 'string' ||
      !(Object.hasOwn(EDITOR_COMMANDS, name) || Object.hasOwn(VIEW_COMMANDS, name))
    ) {
      throw new RangeError(`unknown editor command: ${String(name)}`)
    }
    return this.runCommand(name)
  }

  /**
   * The command bound to a keystroke in Atom's notation (`ctrl-shift-k`), or to a chord
   * (`ctrl-k ctrl-u`), if any.
   */
  commandForKeystroke(keystroke: string): string | undefined {
    return this.keymap.get(keystroke)
  }

  /**
   * The name of every command the view runs, sorted: the editor's and the view's own (find
   * bar, go to line, brackets, font size).
   *
   * @example view.getCommandNames().includes('editor:move-line-up') // => true
   */
  getCommandNames(): string[] {
    const names = new Set([...Object.keys(EDITOR_COMMANDS), ...Object.keys(VIEW_COMMANDS)])
    return [...names].sort()
  }

  /**
   * The keystrokes bound to command `name`, in Atom's notation, chords with spaces.
   *
   * @example view.keystrokesForCommand('editor:upper-case') // => ['ctrl-k ctrl-u']
   */
  keystrokesForCommand(name: string): string[] {
    const keystrokes: string[] = []
    for (const [keys, command] of this.keymap) if (command === name) keystrokes.push(keys)
    return keystrokes
  }

  /** The first keystrokes of a chord waiting for its next one (`'ctrl-k'`), or null. */
  getPendingKeystrokes(): string | null {
    return this.chords.getPending()
  }

  // Font size

  /** The size of the editor's font, in CSS pixels. */
  getFontSize(): number {
    return this.fontZoom.getFontSize()
  }

  /**
   * Draws the text at `size` CSS pixels (a RangeError outside 6 to 96), measured again at
   * once; `window:increase-font-size` and its kin step it by a pixel.
   *
   * @example view.setFontSize(18)
   */
  setFontSize(size: number): void {
    this.fontZoom.setFontSize(size)
    this.remeasure(false)
    this.updateSync()
  }

  // Geometry

  /**
   * The line height and the average character width in CSS pixels. Positions in a row are
   * measured (`pixelPositionForScreenPosition`); the character width only sizes soft wrap.
   */
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

  /**
   * Where a screen position is drawn, in the text area's pixels, measured from the rendered
   * text (a position inside a grapheme cluster is drawn at the cluster's start).
   */
  pixelPositionForScreenPosition(position: PointLike): PixelPosition {
    const point = this.editor.clipScreenPosition(Point.fromObject(position))
    return { top: point.row * this.metrics.lineHeight, left: this.leftOf(point.row, point.column) }
  }

  /**
   * The screen position drawn at a pixel of the text area: the grapheme boundary nearest to
   * it on its row (clipped to the text).
   */
  screenPositionForPixelPosition({ top, left }: PixelPosition): Point {
    return screenPositionForPixel(this.editor, left, top, this.metrics.lineHeight, (row, x) =>
      this.geometryOf(row).columnAt(x),
    )
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
    const { lineHeight } = this.metrics
    const height = editor.getScreenLineCount() * lineHeight
    if (height !== this.contentHeight) {
      this.contentHeight = height
      this.content.style.height = `${height}px`
    }
    const request = this.autoscrollRequest
    this.autoscrollRequest = null
    if (request !== null) this.scrollVertically(request)

    // Writes: the rows and the gutter.
    const { startRow, endRow } = this.rowsInSight()
    const screenLines = editor.displayLayer.getScreenLines(startRow, endRow)
    const lineAt = (row: number) => screenLines[row - startRow]
    const lastBufferRow = screenLines[screenLines.length - 1]?.bufferRange.end.row ?? 0
    // The rows just edited get their colours now, within this frame's time for tokenizing.
    // Rows in sight with no tokens yet (after a jump, on opening) are drawn plain and coloured
    // in idle time, and so are the rows above the screen: no frame waits for a whole screen.
    const mode = editor.getLanguageMode()
    const plainRows: number[] = []
    if (mode.tokenizeBufferRowsFor !== undefined) {
      this.rendering = true
      try {
        mode.tokenizeBufferRowsFor(TOKENIZE_MILLISECONDS_PER_FRAME, lastBufferRow)
      } finally {
        this.rendering = false
      }
      this.idleTokenizing?.request(lastBufferRow)
    }
    this.rendering = true
    try {
      this.lines.render(
        startRow,
        endRow,
        (row) => rowContent(editor, row, lineAt(row), plainRows),
        lineHeight,
      )
    } finally {
      this.rendering = false
    }
    this.shownBufferRows = {
      first: screenLines[0]?.bufferRange.start.row ?? 0,
      last: screenLines[screenLines.length - 1]?.bufferRange.end.row ?? -1,
    }
    if (plainRows.length > 0) {
      this.idleTokenizing?.colour(plainRows, () => this.scheduleUpdate())
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
        const label = start === undefined || start.column !== 0 ? '' : String(start.row + 1)
        return {
          label,
          cursorLine: cursorRows.has(row),
          folded: line?.lineText.includes(foldCharacter) ?? false,
          // Asked only while the pointer is over the gutter: a syntax tree's fold query per
          // row would cost every frame (typing included) for markers no one is pointing at.
          foldable: this.gutterHovered && label !== '' && editor.isFoldableAtBufferRow(start!.row),
        }
      },
      lineHeight,
    )

    // Reads: positions in the rows just laid out (a monospace font's ASCII rows need none).
    const { characterWidth } = this.metrics
    for (let row = startRow; row < endRow; row++) {
      const text = lineAt(row)?.lineText ?? ''
      const width =
        this.monospace && PRINTABLE_ASCII.test(text)
          ? text.length * characterWidth
          : (this.lines.geometryForRow(row)?.width() ?? 0)
      if (width > this.widestRow) this.widestRow = width
    }
    const boxes = decorationBoxes(
      editor,
      {
        startRow,
        endRow,
        lineHeight,
        leftOf: (row, column, towardEnd) => this.leftOf(row, column, towardEnd),
      },
      this.activity,
    )
    const cursor = editor.getCursorScreenPosition()
    const inputLeft = this.leftOf(cursor.row, cursor.column)
    const scrollLeft = request === null ? null : this.horizontalScrollFor(request)

    // Writes: the boxes, the input and the width.
    const width = Math.ceil(this.widestRow + 2 * this.metrics.characterWidth)
    if (width !== this.linesWidth) {
      this.linesWidth = width
      this.linesElement.style.width = `${width}px`
    }
    if (scrollLeft !== null) this.scroller.scrollLeft = scrollLeft
    this.highlights.update(boxes.highlights)
    this.carets.update(boxes.carets)
    this.announcer.update(boxes.peers)
    this.placeInput(cursor.row * lineHeight, inputLeft)
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
    this.languageSubscriptions?.dispose()
    this.idleTokenizing?.dispose()
    if (this.widthsSet && !this.editor.isDestroyed()) {
      this.editor.displayLayer.reset({ ratioForCharacter })
    }
    this.chords.dispose()
    this.findBar.destroy()
    this.goToLineBox.destroy()
    this.brackets.dispose()
    this.occurrenceSelector?.destroy()
    this.decorations.dispose()
    this.activity.dispose()
    this.announcer.dispose()
    this.clipboard.dispose()
    this.mouse.dispose()
    this.input.dispose()
    this.scroller.remove()
    this.element.classList.remove('tandem-editor', 'cursor-blink', 'is-focused')
    applyTheme(this.element, 'auto')
  }

  // Internals

  /**
   * Draws what a key or typed text did at once, in the input event's task, so the next frame
   * only paints (as a browser's own text field does); a second input within the same few
   * milliseconds waits for the frame instead, so a burst of keys costs one update per frame.
   */
  private drawInput(): void {
    const now = performance.now()
    if (now - this.lastInputUpdate < INPUT_UPDATE_INTERVAL) {
      this.scheduleUpdate()
      this.input.sync()
      return
    }
    this.lastInputUpdate = now
    this.updateSync()
  }

  private runCommand(name: string): boolean {
    const viewCommand = VIEW_COMMANDS[name]
    if (viewCommand !== undefined) {
      return viewCommand(this.viewCommands, this.commandContext) !== false
    }
    const command = EDITOR_COMMANDS[name]
    if (command === undefined) return false
    return command(this.commandContext) !== false
  }

  /**
   * Follows the language mode's highlighting: a grammar attached redraws the rows in sight,
   * rows re-tokenized outside an update redraw those of them in sight. The root scope's
   * classes go on the lines' container, as Atom puts them around each line.
   */
  private watchLanguage(): void {
    this.languageSubscriptions?.dispose()
    const mode = this.editor.getLanguageMode()
    const subscriptions = new CompositeDisposable()
    const changed = mode.onDidChangeHighlighting?.(() => this.scheduleUpdate())
    const tokenized = mode.onDidTokenizeBufferRows?.(({ startRow, endRow }) => {
      const shown = this.shownBufferRows
      if (this.rendering || endRow < shown.first || startRow > shown.last) return
      this.scheduleUpdate()
    })
    if (changed !== undefined) subscriptions.add(changed)
    if (tokenized !== undefined) subscriptions.add(tokenized)
    this.languageSubscriptions = subscriptions
    const root = mode.scopeDescriptorForPosition(Point.ZERO).getScopesArray().slice(0, 1)
    const classes = classNameForScopes(root)
      .split(' ')
      .filter((name) => name !== '')
    this.linesElement.classList.remove(...this.rootScopeClasses)
    this.linesElement.classList.add(...classes)
    this.rootScopeClasses = classes
    this.scheduleUpdate()
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

  /** Scrolls the rows of an autoscroll request into sight, two rows from the edges. */
  private scrollVertically({ screenRange, options }: AutoscrollRequest): void {
    const { lineHeight } = this.metrics
    const scroller = this.scroller
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

  /**
   * The horizontal scroll that brings an autoscroll request's head into sight with a margin
   * of four average characters, measured in its rendered row; null when it is in sight.
   */
  private horizontalScrollFor({ screenRange, options }: AutoscrollRequest): number | null {
    const { characterWidth } = this.metrics
    const scroller = this.scroller
    const head = options.reversed ? screenRange.start : screenRange.end
    const textWidth = scroller.clientWidth - this.linesElement.offsetLeft
    const left = this.leftOf(head.row, head.column)
    const margin = Math.min(4 * characterWidth, textWidth / 3)
    if (left - margin < scroller.scrollLeft) return Math.max(0, left - margin)
    if (left + margin > scroller.scrollLeft + textWidth) return left + margin - textWidth
    return null
  }

  /** Moves the hidden input (and a composition in progress) to the last cursor. */
  private placeInput(top: number, left: number): void {
    const { lineHeight } = this.metrics
    const style = `top:${top}px;left:${left}px;height:${lineHeight}px;`
    if (style === this.inputAt) return
    this.inputAt = style
    this.input.textarea.style.cssText = style
    this.compositionElement.style.cssText = style
  }

  /**
   * Pixels from the text area's left edge to the boundary at `column` of screen row `row`,
   * measured in the rendered row (or in a hidden probe for a row out of sight).
   */
  private leftOf(row: number, column: number, towardEnd = false): number {
    return this.geometryOf(row).leftOf(column, towardEnd)
  }

  /** The measured layout of a screen row: its rendered element, else the probe showing it. */
  private geometryOf(row: number): RowGeometry {
    const rendered = this.lines.geometryForRow(row)
    if (rendered !== undefined) return rendered
    const text = this.editor.lineTextForScreenRow(row) ?? ''
    if (this.probe?.text !== text) {
      this.lines.fillElement(this.probeElement, text)
      this.probe = new RowGeometry(this.probeElement, text)
    }
    return this.probe
  }

  private showComposition(text: string | null): void {
    this.compositionElement.hidden = text === null || text === ''
    this.compositionElement.textContent = text ?? ''
  }

  private didResize(): void {
    this.remeasure(false)
    this.updateWrapWidth()
    this.scheduleUpdate()
  }

  /**
   * Measures the font again; when it, the device pixel ratio, or (with `fontsLoaded`) the
   * fonts changed, every row is measured again.
   */
  private remeasure(fontsLoaded: boolean): void {
    const metrics = measureText(this.measureProbe)
    const pixelRatio = this.element.ownerDocument.defaultView?.devicePixelRatio ?? 1
    if (!fontsLoaded && !metricsDiffer(metrics, this.metrics) && pixelRatio === this.pixelRatio) {
      return
    }
    this.metrics = metrics
    this.pixelRatio = pixelRatio
    this.lines.forgetMeasurements()
    this.probe = null
    this.inputAt = ''
    this.widestRow = 0
    this.updateCharacterWidths()
    this.updateWrapWidth()
    this.scheduleUpdate()
  }

  /**
   * Gives the display layer the measured widths of a proportional font's characters, so soft
   * wrap fits its rows to the element; a monospace font keeps Atom's rule.
   */
  private updateCharacterWidths(): void {
    const { monospace, ratio } = fontWidths(this.linesElement, this.metrics.characterWidth)
    this.monospace = monospace
    if (ratio === null && !this.widthsSet) return
    this.widthsSet = ratio !== null
    this.editor.displayLayer.reset({ ratioForCharacter: ratio ?? ratioForCharacter })
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
