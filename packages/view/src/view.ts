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
import { type AutoscrollRequest, OccurrenceSelector, type TextEditor } from '@tandem/editor'
import {
  CompositeDisposable,
  Disposable,
  Emitter,
  Point,
  type PointLike,
  Range,
} from '@tandem/text'
import { AttributionLayer, type AttributionOptions, type AttributionSource } from './attribution.js'
import { BracketHighlight } from './bracket-highlight.js'
import { ChordInput } from './chord-input.js'
import { ClipboardEvents } from './clipboard.js'
import { type CommandContext, EDITOR_COMMANDS } from './commands.js'
import { DecorationWatcher, decorationBoxes } from './decorations-layer.js'
import { EditorGutter } from './editor-gutter.js'
import { FindBar } from './find-bar.js'
import { GoToLineBox } from './go-to-line-box.js'
import { TextInput } from './input.js'
import { buildKeymap } from './keymap.js'
import { LinesLayer } from './lines.js'
import type { TextMetrics } from './measure.js'
import { MouseInput } from './mouse.js'
import { Overlay } from './overlay.js'
import { PeerActivity } from './peer-activity.js'
import { PeerAnnouncer } from './peer-announcer.js'
import { ProposalLayer, type ProposalOptions, type ProposalSource } from './proposals.js'
import {
  horizontalScrollFor,
  type RowSpan,
  rowsInSight,
  rowsPerPage,
  scrollVertically,
} from './scrolling.js'
import { installStyles } from './styles.js'
import { SyntaxColouring } from './syntax-colouring.js'
import { type PixelPosition, TextGeometry } from './text-geometry.js'
import { applyTheme, assertTheme, type EditorTheme } from './theme.js'
import { UserScroll } from './user-scroll.js'
import { VIEW_COMMANDS, type ViewCommandHost } from './view-commands.js'
import { checkViewOptions, type EditorViewOptions } from './view-options.js'
import { buildViewSkeleton } from './view-skeleton.js'
import { FontZoom } from './zoom.js'

/**
 * What `onDidChangeVisibleRange` reports: the buffer range of the rows in sight, and whether
 * the user scrolled (wheel, touch, scroll bar) rather than the view or a program.
 *
 * @example view.onDidChangeVisibleRange(({ range, byUser }) => byUser && stopFollowing())
 */
export interface VisibleRangeChangeEvent {
  /** From the start of the first row in sight to the end of the last, in buffer coordinates. */
  readonly range: Range
  /** True when the change comes from the user's own scrolling. */
  readonly byUser: boolean
}

/** The shortest time between two updates drawn in input events, in milliseconds. */
const INPUT_UPDATE_INTERVAL = 8

const isElement = (value: unknown): value is HTMLElement =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as HTMLElement).appendChild === 'function' &&
  typeof (value as HTMLElement).ownerDocument === 'object'

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
  private readonly linesElement: HTMLDivElement
  private readonly compositionElement: HTMLDivElement
  private readonly lines: LinesLayer
  private readonly geometry: TextGeometry
  private readonly gutter: EditorGutter
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
  private readonly subscriptions = new CompositeDisposable()
  private readonly overscan: number
  private readonly commandContext: CommandContext
  private frame: number | null = null
  private autoscrollRequest: AutoscrollRequest | null = null
  private contentHeight = -1
  private widestRow = 0
  private linesWidth = -1
  private inputAt = ''
  private destroyed = false
  private theme: EditorTheme
  private lastInputUpdate = Number.NEGATIVE_INFINITY
  private readonly colouring: SyntaxColouring
  private readonly userScroll: UserScroll
  private readonly emitter = new Emitter<{ 'did-change-visible-range': VisibleRangeChangeEvent }>()
  private visibleRange: Range | null = null
  private attribution: AttributionLayer | null = null
  private proposals: ProposalLayer | null = null
  private readonly gutterElement: HTMLDivElement

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
    const { overscan, label, delays, theme } = checkViewOptions(options)
    this.overscan = overscan
    this.theme = theme
    this.element = element
    this.keymap = buildKeymap(options.keymap)
    this.commandContext = { editor, rowsPerPage: () => this.getRowsPerPage() }
    const document = element.ownerDocument
    installStyles(document)
    element.classList.add('tandem-editor')
    applyTheme(element, theme)
    if (options.cursorBlink ?? true) element.classList.add('cursor-blink')

    const skeleton = buildViewSkeleton(element, { lineNumbers: options.lineNumbers !== false })
    this.scroller = skeleton.scroller
    this.content = skeleton.content
    this.linesElement = skeleton.lines
    this.compositionElement = skeleton.composition
    this.gutterElement = skeleton.gutter
    const foldCharacter = editor.displayLayer.getSettings().foldCharacter
    this.lines = new LinesLayer(this.linesElement, foldCharacter)
    this.geometry = new TextGeometry({
      editor,
      lines: this.lines,
      scroller: this.scroller,
      measureBox: skeleton.measureBox,
      probeRow: skeleton.probeRow,
      didRemeasure: () => {
        this.inputAt = ''
        this.widestRow = 0
        this.scheduleUpdate()
      },
    })
    this.gutter = new EditorGutter(skeleton.gutter, editor, {
      focus: () => this.focus(),
      scheduleUpdate: () => this.scheduleUpdate(),
    })
    this.gutter.setLineCount(editor.getLineCount())
    this.highlights = new Overlay(skeleton.highlights)
    this.carets = new Overlay(skeleton.carets)
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
        screenPositionForClientPoint: (x, y) => this.geometry.screenPositionForClientPoint(x, y),
        focus: () => this.focus(),
      },
      this.linesElement,
    )
    this.clipboard = new ClipboardEvents(editor, this.input.textarea)
    this.decorations = new DecorationWatcher(editor, () => this.scheduleUpdate())
    const window = document.defaultView
    this.colouring = new SyntaxColouring(editor, this.lines, window, () => this.scheduleUpdate())
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
        this.geometry.remeasure(false)
        this.updateSync()
      },
    }

    const display = editor.displayLayer
    this.userScroll = new UserScroll(this.scroller)
    const onScroll = () => {
      this.userScroll.noteScroll()
      this.scheduleUpdate()
    }
    this.scroller.addEventListener('scroll', onScroll, { passive: true })
    const view = document.defaultView
    const resizeObserver =
      view?.ResizeObserver === undefined ? null : new view.ResizeObserver(() => this.didResize())
    resizeObserver?.observe(this.scroller)
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
      editor.onDidChangeGrammar(() => this.colouring.watchLanguage()),
      new Disposable(() => {
        this.scroller.removeEventListener('scroll', onScroll)
        resizeObserver?.disconnect()
      }),
    )
    this.colouring.watchLanguage()
    this.geometry.updateCharacterWidths()
    this.geometry.updateWrapWidth()
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
    this.geometry.remeasure(false)
    this.updateSync()
  }

  // Geometry

  /**
   * The line height and the average character width in CSS pixels. Positions in a row are
   * measured (`pixelPositionForScreenPosition`); the character width only sizes soft wrap.
   */
  getMetrics(): TextMetrics {
    return this.geometry.metrics
  }

  /** How many whole rows fit in the visible height (at least 1): the page-up/down step. */
  getRowsPerPage(): number {
    return rowsPerPage(this.scroller, this.geometry.metrics.lineHeight)
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
    return this.geometry.pixelPositionFor(
      this.editor.clipScreenPosition(Point.fromObject(position)),
    )
  }

  /**
   * The screen position drawn at a pixel of the text area: the grapheme boundary nearest to
   * it on its row (clipped to the text).
   */
  screenPositionForPixelPosition({ top, left }: PixelPosition): Point {
    return this.geometry.screenPositionForPixel({ top, left })
  }

  /**
   * The buffer range of the rows in sight, partly visible ones included: from the start of
   * the first to the end of the last.
   *
   * @example view.getVisibleBufferRange().start.row // => 0 at the top
   */
  getVisibleBufferRange(): Range {
    const { lineHeight } = this.geometry.metrics
    const rowCount = this.editor.getScreenLineCount()
    return this.bufferRangeOfRows(rowsInSight(this.scroller, lineHeight, rowCount, 0))
  }

  /**
   * Calls `callback` after the rows in sight changed (scrolling, resizing, edits above them),
   * at most once per update, with their buffer range and whether the user scrolled.
   *
   * @example view.onDidChangeVisibleRange(({ range }) => publish(range))
   */
  onDidChangeVisibleRange(callback: (event: VisibleRangeChangeEvent) => void): Disposable {
    return this.emitter.on('did-change-visible-range', callback)
  }

  /**
   * Scrolls vertically so that the screen row of buffer `position` (clipped) is the first
   * row in sight, or as near as the scroll range allows.
   *
   * @example view.scrollBufferPositionToTop([120, 0])
   */
  scrollBufferPositionToTop(position: PointLike): void {
    const { row } = this.editor.screenPositionForBufferPosition(position)
    this.userScroll.viewScrolls()
    this.scroller.scrollTop = row * this.geometry.metrics.lineHeight
    this.scheduleUpdate()
  }

  /** The vertical scroll offset in pixels. */
  getScrollTop(): number {
    return this.scroller.scrollTop
  }

  /** Scrolls vertically to `top` pixels (rows render on the next update). */
  setScrollTop(top: number): void {
    this.userScroll.viewScrolls()
    this.scroller.scrollTop = top
  }

  // Who wrote what

  /**
   * Colours the text (or the gutter, or both: `options.show`) by who wrote it, as `source`
   * says (`connection.history` of `@tandem/collab` is one), with a legend naming each author
   * and the author and time of a run on hover. Only the rows on screen are asked for. Showing
   * another source replaces the one shown.
   *
   * @example view.showAttribution(connection.history, { show: 'both', nameOf: (id) => names.get(id) })
   */
  showAttribution(source: AttributionSource, options: AttributionOptions = {}): void {
    const layer = new AttributionLayer(
      {
        editor: this.editor,
        element: this.element,
        lines: this.linesElement,
        gutter: this.gutterElement,
        input: this.input.textarea,
        screenPositionForClientPoint: (x, y) => this.geometry.screenPositionForClientPoint(x, y),
        scheduleUpdate: () => this.scheduleUpdate(),
      },
      source,
      options,
    )
    this.attribution?.dispose()
    this.attribution = layer
  }

  /** Stops colouring by author and removes the legend. Safe when not shown. */
  hideAttribution(): void {
    this.attribution?.dispose()
    this.attribution = null
    this.scheduleUpdate()
  }

  /** Whether the attribution mode is on. */
  isShowingAttribution(): boolean {
    return this.attribution !== null
  }

  // Proposals

  /**
   * Shows the changes `source` proposes (`connection.proposals` of `@tandem/collab` is one) as
   * suggestions: the text each replaces struck through, the text it puts there in the
   * program's colour, and a card under it with the program's name, its message and Accept and
   * Reject buttons (disabled while the editor is read-only, or as `options.canReview` says).
   * Showing another source replaces the one shown.
   *
   * @example view.showProposals(connection.proposals)
   */
  showProposals(source: ProposalSource, options: ProposalOptions = {}): void {
    const layer = new ProposalLayer(
      {
        editor: this.editor,
        lines: this.linesElement,
        scheduleUpdate: () => this.scheduleUpdate(),
        focus: () => this.focus(),
      },
      source,
      options,
    )
    this.proposals?.dispose()
    this.proposals = layer
  }

  /** Stops showing proposals. Safe when not shown. */
  hideProposals(): void {
    this.proposals?.dispose()
    this.proposals = null
    this.scheduleUpdate()
  }

  /** Whether proposals are shown. */
  isShowingProposals(): boolean {
    return this.proposals !== null
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
    const { editor, geometry } = this
    if (this.gutter.setLineCount(editor.getLineCount())) geometry.updateWrapWidth()
    const { lineHeight, characterWidth } = geometry.metrics
    const height = editor.getScreenLineCount() * lineHeight
    if (height !== this.contentHeight) {
      this.contentHeight = height
      this.content.style.height = `${height}px`
    }
    const request = this.autoscrollRequest
    this.autoscrollRequest = null
    if (request !== null) {
      this.userScroll.viewScrolls()
      scrollVertically(this.scroller, request, lineHeight)
    }

    // Writes: the rows and the gutter.
    const { startRow, endRow } = this.rowsInSight()
    // Read with the rows above, before anything is written: no second layout.
    const inSight = rowsInSight(this.scroller, lineHeight, editor.getScreenLineCount(), 0)
    const screenLines = editor.displayLayer.getScreenLines(startRow, endRow)
    this.colouring.render(startRow, endRow, screenLines, lineHeight)
    this.gutter.render(startRow, endRow, screenLines, lineHeight)

    // Reads: positions in the rows just laid out (a monospace font's ASCII rows need none).
    for (let row = startRow; row < endRow; row++) {
      const width = geometry.widthOfRenderedRow(row, screenLines[row - startRow]?.lineText ?? '')
      if (width > this.widestRow) this.widestRow = width
    }
    const boxes = decorationBoxes(
      editor,
      {
        startRow,
        endRow,
        lineHeight,
        leftOf: (row, column, towardEnd) => geometry.leftOf(row, column, towardEnd),
      },
      this.activity,
    )
    const drawAttribution = this.attribution?.layout({
      startRow,
      endRow,
      lineHeight,
      leftOf: (row, column, towardEnd) => geometry.leftOf(row, column, towardEnd),
    })
    const drawProposals = this.proposals?.layout({
      startRow,
      endRow,
      lineHeight,
      leftOf: (row, column, towardEnd) => geometry.leftOf(row, column, towardEnd),
    })
    const cursor = editor.getCursorScreenPosition()
    const inputLeft = geometry.leftOf(cursor.row, cursor.column)
    const scrollLeft =
      request === null
        ? null
        : horizontalScrollFor(this.scroller, request, {
            lines: this.linesElement,
            characterWidth,
            leftOf: (row, column) => geometry.leftOf(row, column),
          })

    // Writes: the boxes, the input and the width.
    const width = Math.ceil(this.widestRow + 2 * characterWidth)
    if (width !== this.linesWidth) {
      this.linesWidth = width
      this.linesElement.style.width = `${width}px`
    }
    if (scrollLeft !== null) this.scroller.scrollLeft = scrollLeft
    this.highlights.update(boxes.highlights)
    this.carets.update(boxes.carets)
    drawAttribution?.()
    drawProposals?.()
    this.announcer.update(boxes.peers)
    this.placeInput(cursor.row * lineHeight, inputLeft)
    this.input.sync()
    this.reportVisibleRange(inSight)
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
    this.attribution?.dispose()
    this.attribution = null
    this.proposals?.dispose()
    this.proposals = null
    this.userScroll.dispose()
    this.emitter.dispose()
    this.colouring.dispose()
    this.geometry.dispose()
    this.gutter.dispose()
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

  /** The buffer range from the start of a span's first screen row to the end of its last. */
  private bufferRangeOfRows({ startRow, endRow }: RowSpan): Range {
    const lastRow = Math.max(startRow, endRow - 1)
    return this.editor.bufferRangeForScreenRange(
      new Range(new Point(startRow, 0), new Point(lastRow, Number.POSITIVE_INFINITY)),
    )
  }

  /** Emits the rows in sight (`inSight`) when they changed, or when the user scrolled. */
  private reportVisibleRange(inSight: RowSpan): void {
    const byUser = this.userScroll.takeUserScroll()
    if (!byUser && this.emitter.listenerCountForEventName('did-change-visible-range') === 0) return
    const range = this.bufferRangeOfRows(inSight)
    if (!byUser && this.visibleRange?.isEqual(range)) return
    this.visibleRange = range
    this.emitter.emit('did-change-visible-range', { range, byUser })
  }

  private rowsInSight(): RowSpan {
    const { lineHeight } = this.geometry.metrics
    const rowCount = this.editor.getScreenLineCount()
    return rowsInSight(this.scroller, lineHeight, rowCount, this.overscan)
  }

  /** Moves the hidden input (and a composition in progress) to the last cursor. */
  private placeInput(top: number, left: number): void {
    const { lineHeight } = this.geometry.metrics
    const style = `top:${top}px;left:${left}px;height:${lineHeight}px;`
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
    this.geometry.remeasure(false)
    this.geometry.updateWrapWidth()
    this.scheduleUpdate()
  }
}
