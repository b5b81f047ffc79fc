import { type MarkOptions, TextBuffer } from '@tandem/buffer'
import { DisplayLayer, type ScreenLine, type TranslateOptions } from '@tandem/display'
import {
  createLanguageMode,
  type LanguageMode,
  PLAIN_TEXT,
  type ScopeDescriptor,
} from '@tandem/language'
import {
  CompositeDisposable,
  type Disposable,
  Emitter,
  Point,
  type PointLike,
  Range,
  type RangeLike,
} from '@tandem/text'
import type * as Y from 'yjs'
import { Clipboard } from './clipboard.js'
import { Cursor, type CursorPositionChangeEvent } from './cursor.js'
import { type Decoration, type DecorationProperties, DecorationSet } from './decorations.js'
import { type DisplayMarker, DisplayMarkerLayer } from './display-marker.js'
import { type EditorEdits, editorEdits, type WillInsertTextEvent } from './editor-edits.js'
import { type FoldCommands, foldCommands } from './fold-commands.js'
import { IndentationDetection } from './indentation-detection.js'
import { type LineCommands, lineCommands } from './line-commands.js'
import { type MultiCursorCommands, multiCursorCommands } from './multi-cursor-commands.js'
import { paragraphRangeAtRow } from './paragraphs.js'
import { Selection, type SelectionRangeChangeEvent, type SetRangeOptions } from './selection.js'
import { DEFAULT_NON_WORD_CHARACTERS } from './words.js'

/** Options of `new TextEditor`; each absent one takes Atom's default. */
export interface TextEditorOptions {
  /** Initial text (for a new document, or one whose text is empty). */
  text?: string
  /** A Yjs document to share with other peers (default: a new one). */
  doc?: Y.Doc
  /** Name of the Y.Text in `doc` (default `'text'`). */
  textName?: string
  /** A buffer to edit (several editors may share one); overrides text/doc/textName. */
  buffer?: TextBuffer
  /** Columns per tab stop (default: detected from the text, see `detectIndentation`). */
  tabLength?: number
  /** Indent with spaces (default: detected from the text, see `detectIndentation`). */
  softTabs?: boolean
  /**
   * Detect `softTabs` and `tabLength` when they are not given: from the text when the editor
   * is made, on `setText`, and when an empty document first arrives from a peer; the
   * language's default when no row is indented (default true). False keeps Atom's defaults,
   * two-column soft tabs.
   */
  detectIndentation?: boolean
  /** Leading spaces move and clip in whole tab lengths (default true). */
  atomicSoftTabs?: boolean
  /** Soft-wrap long lines (default false). */
  softWrapped?: boolean
  /** Width of the editor in characters, for soft wrap. */
  editorWidthInChars?: number
  /** The preferred line length (default 80). */
  preferredLineLength?: number
  /** Wrap at the smaller of the width and the preferred line length (default false). */
  softWrapAtPreferredLineLength?: boolean
  /** Extra indentation of wrapped rows (default 0). */
  softWrapHangingIndentLength?: number
  /** Where lines wrap when soft wrap is off (default 500, as Atom). */
  maxScreenLineLength?: number
  /** Refuse text changes not passed `bypassReadOnly` (default false). */
  readOnly?: boolean
  /** Indent new lines automatically (default true). */
  autoIndent?: boolean
  /** Re-indent pasted lines to where they land (default true, as Atom's `autoIndentOnPaste`). */
  autoIndentOnPaste?: boolean
  /** Milliseconds within which typing groups into one undo step (default 300). */
  undoGroupingInterval?: number
  /** Characters that end words (default Atom's `editor.nonWordCharacters`). */
  nonWordCharacters?: string
  /** The clipboard for copy, cut and paste (default: a new in-memory one). */
  clipboard?: Clipboard
  /**
   * The language by id (`javascript`, `python`, ...; see `grammarForFileName`), default
   * plain text. Its parsers start working once `loadLanguage(id)` has loaded them.
   */
  grammar?: string
  /** A language mode of the application's own (wins over `grammar`). */
  languageMode?: LanguageMode
}

/** Payload of `onDidRequestAutoscroll`: what a view should scroll into sight. */
export interface AutoscrollRequest {
  /** The range to bring into sight, in screen coordinates. */
  screenRange: Range
  /** How to scroll it into sight. */
  options: {
    /** Clip the range to the text first (Atom's option; views may ignore it). */
    clip?: boolean
    /** The head is at the start: bring the start into sight first. */
    reversed?: boolean
    /** Center the head vertically instead of scrolling as little as possible. */
    center?: boolean
  }
}

interface Events {
  'did-add-cursor': Cursor
  'did-remove-cursor': Cursor
  'did-add-selection': Selection
  'did-remove-selection': Selection
  'did-change-cursor-position': CursorPositionChangeEvent
  'did-change-selection-range': SelectionRangeChangeEvent
  'did-request-autoscroll': AutoscrollRequest
  'did-change-soft-wrapped': boolean
  'did-change-grammar': string
  'did-destroy': undefined
  'will-insert-text': WillInsertTextEvent
  'did-insert-text': { text: string; range: Range }
  'did-attempt-read-only-edit': { operation: string }
}

const FOLD_PLACEHOLDER = '\uFEFF'

const checkOption = (value: unknown, name: string, kind: 'number' | 'boolean' | 'string') => {
  if (
    value !== undefined &&
    (typeof value !== kind || (kind === 'number' && Number.isNaN(value)))
  ) {
    throw new TypeError(`${name} must be a ${kind}, got ${String(value)}`)
  }
}

/**
 * Atom's TextEditor over a Tandem text buffer (a Yjs Y.Text): cursors and selections as
 * markers, a display layer for screen coordinates, decorations for views.
 *
 * @example
 * const editor = new TextEditor({ text: 'hello world' })
 * editor.getLastCursor().moveToEndOfWord()
 * editor.getCursorBufferPosition() // => Point(0, 5)
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the merged interface's methods are installed on the prototype below the class.
export class TextEditor {
  /** The text buffer (shared by editors of the same buffer). */
  readonly buffer: TextBuffer
  /** Screen coordinates: folds, tabs and soft wrap. */
  readonly displayLayer: DisplayLayer
  /** The markers of the selections (one per cursor). */
  readonly selectionsMarkerLayer: DisplayMarkerLayer
  /** Markers made with `markBufferRange` and friends. */
  readonly defaultMarkerLayer: DisplayMarkerLayer
  private readonly cursors: Cursor[] = []
  private readonly selections: Selection[] = []
  /** @internal */ readonly emitter = new Emitter<Events>()
  private readonly subscriptions = new CompositeDisposable()
  private readonly decorations = new DecorationSet()
  private readonly clipboard: Clipboard
  private languageMode: LanguageMode
  private readonly indentation: IndentationDetection
  private softTabs: boolean
  private softWrapped: boolean
  private editorWidthInChars: number | undefined
  private preferredLineLength: number
  private softWrapAtPreferredLineLength: boolean
  private readonly maxScreenLineLength: number
  private readOnly: boolean
  private readonly autoIndent: boolean
  private readonly autoIndentOnPaste: boolean
  private readonly undoGroupingInterval: number
  private readonly nonWordCharacters: string
  private suppressSelectionMerging = false
  /** False while no two selections can overlap (just after a full merge, with no change since). */
  private selectionsMayOverlap = false
  private alive = true

  constructor(options: TextEditorOptions = {}) {
    checkOption(options.tabLength, 'tabLength', 'number')
    checkOption(options.editorWidthInChars, 'editorWidthInChars', 'number')
    checkOption(options.preferredLineLength, 'preferredLineLength', 'number')
    checkOption(options.softWrapHangingIndentLength, 'softWrapHangingIndentLength', 'number')
    checkOption(options.nonWordCharacters, 'nonWordCharacters', 'string')
    this.buffer =
      options.buffer ??
      new TextBuffer({ text: options.text, doc: options.doc, textName: options.textName })
    this.softWrapped = options.softWrapped ?? false
    this.editorWidthInChars = options.editorWidthInChars
    this.preferredLineLength = options.preferredLineLength ?? 80
    this.softWrapAtPreferredLineLength = options.softWrapAtPreferredLineLength ?? false
    this.maxScreenLineLength = options.maxScreenLineLength ?? 500
    this.readOnly = options.readOnly ?? false
    this.autoIndent = options.autoIndent ?? true
    this.autoIndentOnPaste = options.autoIndentOnPaste ?? true
    this.undoGroupingInterval = options.undoGroupingInterval ?? 300
    this.nonWordCharacters = options.nonWordCharacters ?? DEFAULT_NON_WORD_CHARACTERS
    this.clipboard = options.clipboard ?? new Clipboard()
    this.languageMode =
      options.languageMode ?? createLanguageMode(options.grammar ?? PLAIN_TEXT, this.buffer)
    this.indentation = new IndentationDetection(this, options, ({ softTabs, tabLength }) => {
      this.softTabs = softTabs
      if (tabLength !== this.getTabLength()) this.displayLayer.reset({ tabLength })
    })
    this.softTabs = this.indentation.initial.softTabs
    this.displayLayer = new DisplayLayer(this.buffer, {
      tabLength: this.indentation.initial.tabLength,
      atomicSoftTabs: options.atomicSoftTabs ?? true,
      softWrapColumn: this.getSoftWrapColumn(),
      softWrapHangingIndent: options.softWrapHangingIndentLength ?? 0,
      foldCharacter: FOLD_PLACEHOLDER,
    })
    this.defaultMarkerLayer = new DisplayMarkerLayer(
      this.displayLayer,
      this.buffer.addMarkerLayer(),
    )
    this.selectionsMarkerLayer = new DisplayMarkerLayer(
      this.displayLayer,
      this.buffer.addMarkerLayer({ maintainHistory: true }),
    )
    this.decorations.decorate(this.selectionsMarkerLayer, { type: 'cursor' })
    this.subscriptions.add(
      this.displayLayer.onDidChange(() => this.mergeIntersectingSelections()),
      this.displayLayer.onDidReset(() => this.mergeIntersectingSelections()),
      this.selectionsMarkerLayer.onDidCreateMarker((marker) => this.addSelection(marker)),
      this.selectionsMarkerLayer.onDidChangeMarker(({ marker, change }) => {
        selectionOf(marker)?.markerDidChange(change)
      }),
      this.selectionsMarkerLayer.onDidDestroyMarker((marker) => {
        selectionOf(marker)?.markerDidDestroy()
      }),
    )
    this.addCursorAtBufferPosition([0, 0])
  }

  // Text

  /** The buffer. */
  getBuffer(): TextBuffer {
    return this.buffer
  }

  /** The whole text. */
  getText(): string {
    return this.buffer.getText()
  }

  /** Replaces the whole text (refused when read-only unless `bypassReadOnly`). */
  setText(text: string, options: { bypassReadOnly?: boolean } = {}): Range | undefined {
    if (!this.ensureWritable('setText', options)) return undefined
    const range = this.buffer.setText(text)
    this.indentation.textWasSet()
    return range
  }

  /** The text in a buffer range. */
  getTextInBufferRange(range: RangeLike): string {
    return this.buffer.getTextInRange(range)
  }

  /** The number of buffer rows. */
  getLineCount(): number {
    return this.buffer.getLineCount()
  }

  /** The buffer rows of screen rows `startRow` to `endRow` (inclusive), as Atom gives them. */
  bufferRowsForScreenRows(startRow: number, endRow: number): number[] {
    return this.displayLayer.bufferRowsForScreenRows(startRow, endRow + 1)
  }

  /** The last buffer row. */
  getLastBufferRow(): number {
    return this.buffer.getLastRow()
  }

  /** The text of a buffer row without its line ending. */
  lineTextForBufferRow(row: number): string | undefined {
    return this.buffer.lineForRow(row)
  }

  /** The range of a buffer row, with its line ending when `includeNewline`. */
  bufferRangeForBufferRow(row: number, options: { includeNewline?: boolean } = {}): Range {
    return this.buffer.rangeForRow(row, options.includeNewline ?? false)
  }

  /** The end of the buffer. */
  getEofBufferPosition(): Point {
    return this.buffer.getEndPosition()
  }

  /** Whether a buffer row holds only whitespace. */
  isBufferRowBlank(row: number): boolean {
    return this.buffer.isRowBlank(row)
  }

  // Screen

  /** The number of screen rows. */
  getScreenLineCount(): number {
    return this.displayLayer.getScreenLineCount()
  }

  /** The screen row count without laying anything out. */
  getApproximateScreenLineCount(): number {
    return this.displayLayer.getApproximateScreenLineCount()
  }

  /** The last screen row. */
  getLastScreenRow(): number {
    return this.getScreenLineCount() - 1
  }

  /** The length of a screen row. */
  lineLengthForScreenRow(row: number): number {
    return this.displayLayer.lineLengthForScreenRow(row) ?? 0
  }

  /** The text of a screen row. */
  lineTextForScreenRow(row: number): string | undefined {
    if (!(row >= 0 && row < this.getScreenLineCount())) return undefined
    return this.displayLayer.screenLineForScreenRow(row).lineText
  }

  /** A screen row's text and the buffer range it shows. */
  screenLineForScreenRow(row: number): ScreenLine {
    return this.displayLayer.screenLineForScreenRow(row)
  }

  /** The buffer row shown at the start of a screen row. */
  bufferRowForScreenRow(row: number): number {
    return this.displayLayer.translateScreenPosition(new Point(row, 0)).row
  }

  /** The screen row showing the start of a buffer row. */
  screenRowForBufferRow(row: number): number {
    return this.displayLayer.translateBufferPosition(new Point(row, 0)).row
  }

  /** Translates a buffer position to the screen (`clipDirection` default `closest`). */
  screenPositionForBufferPosition(position: PointLike, options?: TranslateOptions): Point {
    return this.displayLayer.translateBufferPosition(position, options)
  }

  /** Translates a screen position to the buffer (`clipDirection` default `closest`). */
  bufferPositionForScreenPosition(position: PointLike, options?: TranslateOptions): Point {
    return this.displayLayer.translateScreenPosition(position, options)
  }

  /** Translates a buffer range to the screen. */
  screenRangeForBufferRange(range: RangeLike, options?: TranslateOptions): Range {
    const { start, end } = Range.fromObject(range)
    return new Range(
      this.screenPositionForBufferPosition(start, options),
      this.screenPositionForBufferPosition(end, options),
    )
  }

  /** Translates a screen range to the buffer. */
  bufferRangeForScreenRange(range: RangeLike): Range {
    const { start, end } = Range.fromObject(range)
    return new Range(
      this.bufferPositionForScreenPosition(start),
      this.bufferPositionForScreenPosition(end),
    )
  }

  /** The nearest valid buffer position. */
  clipBufferPosition(position: PointLike): Point {
    return this.buffer.clipPosition(position)
  }

  /** The nearest valid buffer range. */
  clipBufferRange(range: RangeLike): Range {
    return this.buffer.clipRange(range)
  }

  /** The nearest valid screen position (by `clipDirection`, default `closest`). */
  clipScreenPosition(position: PointLike, options?: TranslateOptions): Point {
    return this.displayLayer.clipScreenPosition(position, options)
  }

  /** The nearest valid screen range. */
  clipScreenRange(range: RangeLike, options?: TranslateOptions): Range {
    const { start, end } = Range.fromObject(range)
    return new Range(
      this.displayLayer.clipScreenPosition(start, options),
      this.displayLayer.clipScreenPosition(end, options),
    )
  }

  // Settings

  /** Whether indentation uses spaces. */
  getSoftTabs(): boolean {
    return this.softTabs
  }

  /** Sets whether indentation uses spaces. */
  setSoftTabs(softTabs: boolean): void {
    this.indentation.choose('softTabs', softTabs)
    this.softTabs = softTabs
  }

  /** The tab length. */
  getTabLength(): number {
    return this.displayLayer.getSettings().tabLength
  }

  /** Sets the tab length (re-lays out the screen). */
  setTabLength(tabLength: number): void {
    checkOption(tabLength, 'tabLength', 'number')
    this.indentation.choose('tabLength', tabLength)
    this.displayLayer.reset({ tabLength })
  }

  /** Whether leading spaces move in whole tab lengths. */
  hasAtomicSoftTabs(): boolean {
    return this.displayLayer.getSettings().atomicSoftTabs
  }

  /** Whether long lines soft-wrap. */
  isSoftWrapped(): boolean {
    return this.softWrapped
  }

  /** Turns soft wrap on or off; returns the new state. */
  setSoftWrapped(softWrapped: boolean): boolean {
    if (softWrapped !== this.softWrapped) {
      this.softWrapped = softWrapped
      this.displayLayer.reset({ softWrapColumn: this.getSoftWrapColumn() })
      this.emitter.emit('did-change-soft-wrapped', softWrapped)
    }
    return this.softWrapped
  }

  /** Flips soft wrap. */
  toggleSoftWrapped(): boolean {
    return this.setSoftWrapped(!this.softWrapped)
  }

  /** The editor's width in characters. */
  getEditorWidthInChars(): number | undefined {
    return this.editorWidthInChars
  }

  /** Sets the width in characters (soft wrap follows it). */
  setEditorWidthInChars(width: number): void {
    checkOption(width, 'editorWidthInChars', 'number')
    this.editorWidthInChars = width
    this.displayLayer.reset({ softWrapColumn: this.getSoftWrapColumn() })
  }

  /** The preferred line length. */
  getPreferredLineLength(): number {
    return this.preferredLineLength
  }

  /** Sets the preferred line length. */
  setPreferredLineLength(length: number): void {
    checkOption(length, 'preferredLineLength', 'number')
    this.preferredLineLength = length
    this.displayLayer.reset({ softWrapColumn: this.getSoftWrapColumn() })
  }

  /** Sets whether soft wrap stops at the preferred line length. */
  setSoftWrapAtPreferredLineLength(value: boolean): void {
    this.softWrapAtPreferredLineLength = value
    this.displayLayer.reset({ softWrapColumn: this.getSoftWrapColumn() })
  }

  /** The hanging indent of wrapped rows. */
  getSoftWrapHangingIndentLength(): number {
    return this.displayLayer.getSettings().softWrapHangingIndent
  }

  /** Sets the hanging indent of wrapped rows. */
  setSoftWrapHangingIndentLength(length: number): void {
    checkOption(length, 'softWrapHangingIndentLength', 'number')
    this.displayLayer.reset({ softWrapHangingIndent: length })
  }

  /** The column where rows wrap: the width (or preferred length) when soft-wrapped, else 500. */
  getSoftWrapColumn(): number {
    if (!this.softWrapped) return this.maxScreenLineLength
    const width = this.editorWidthInChars ?? this.maxScreenLineLength
    return this.softWrapAtPreferredLineLength ? Math.min(width, this.preferredLineLength) : width
  }

  /** Whether text changes are refused. */
  isReadOnly(): boolean {
    return this.readOnly
  }

  /** Sets whether text changes are refused. */
  setReadOnly(readOnly: boolean): void {
    this.readOnly = readOnly
  }

  /** Whether new lines are indented automatically. */
  shouldAutoIndent(): boolean {
    return this.autoIndent
  }

  /** Whether pasted lines are re-indented to where they land. */
  shouldAutoIndentOnPaste(): boolean {
    return this.autoIndentOnPaste
  }

  /** The undo grouping interval in milliseconds. */
  getUndoGroupingInterval(): number {
    return this.undoGroupingInterval
  }

  /** The clipboard used by copy, cut and paste. */
  getClipboard(): Clipboard {
    return this.clipboard
  }

  /** The characters that end words at `position` (the language's, else the editor's). */
  getNonWordCharacters(position: PointLike = Point.ZERO): string {
    return (
      this.languageMode.getNonWordCharacters(Point.fromObject(position)) ?? this.nonWordCharacters
    )
  }

  // Language

  /** The language mode. */
  getLanguageMode(): LanguageMode {
    return this.languageMode
  }

  /** The id of the language in use (`plaintext` when there is none). */
  getGrammar(): string {
    return this.languageMode.id
  }

  /**
   * Switches to language `id` (see `grammarForFileName`); an unknown id throws a RangeError
   * and leaves the language as it was. Fires `onDidChangeGrammar`.
   */
  setGrammar(id: string): void {
    if (id === this.languageMode.id) return
    const next = createLanguageMode(id, this.buffer)
    this.languageMode.destroy()
    this.languageMode = next
    this.emitter.emit('did-change-grammar', id)
  }

  /** Calls `callback` with the new language's id when `setGrammar` changes it. */
  onDidChangeGrammar(callback: (id: string) => void): Disposable {
    return this.emitter.on('did-change-grammar', callback)
  }

  /** The language scopes at a buffer position. */
  scopeDescriptorForBufferPosition(position: PointLike): ScopeDescriptor {
    return this.languageMode.scopeDescriptorForPosition(this.buffer.clipPosition(position))
  }

  /** The syntax-tree node types at a buffer position. */
  syntaxTreeScopeDescriptorForBufferPosition(position: PointLike): ScopeDescriptor {
    return this.languageMode.syntaxTreeScopeDescriptorForPosition(
      this.buffer.clipPosition(position),
    )
  }

  /** The paragraph around a buffer row (undefined on a blank row). */
  paragraphRangeAtBufferRow(row: number): Range | undefined {
    return paragraphRangeAtRow(this.buffer, row, (r) => this.languageMode.isRowCommented(r))
  }

  /** Atom's name for `paragraphRangeAtBufferRow`. */
  rowRangeForParagraphAtBufferRow(row: number): Range | undefined {
    return this.paragraphRangeAtBufferRow(row)
  }

  /** The paragraph around the last cursor. */
  getCurrentParagraphBufferRange(): Range | undefined {
    return this.getLastCursor().getCurrentParagraphBufferRange()
  }

  // Folds

  /** Folds buffer rows `startRow`..`endRow` (from the end of the first to the end of the last). */
  foldBufferRowRange(startRow: number, endRow: number): number {
    return this.foldBufferRange(
      new Range(
        new Point(startRow, Number.POSITIVE_INFINITY),
        new Point(endRow, Number.POSITIVE_INFINITY),
      ),
    )
  }

  /** Folds a buffer range; returns the fold's id. */
  foldBufferRange(range: RangeLike): number {
    return this.displayLayer.foldBufferRange(range)
  }

  /** Removes every fold; returns their ranges. When there were some, the cursor is scrolled to. */
  unfoldAll(): Range[] {
    const unfolded = this.displayLayer.destroyAllFolds()
    if (unfolded.length > 0) this.getLastCursor().autoscroll()
    return unfolded
  }

  /** Whether a fold touches a buffer row. */
  isFoldedAtBufferRow(row: number): boolean {
    return this.displayLayer.isFoldedAtBufferRow(row)
  }

  /** Whether a fold touches a screen row. */
  isFoldedAtScreenRow(row: number): boolean {
    return this.displayLayer.isFoldedAtScreenRow(row)
  }

  /** Removes the folds intersecting a buffer range. */
  destroyFoldsIntersectingBufferRange(range: RangeLike): Range[] {
    return this.displayLayer.destroyFoldsIntersectingBufferRange(range)
  }

  /** Removes the folds containing any of the positions (strictly, with `excludeEndpoints`). */
  destroyFoldsContainingBufferPositions(
    positions: readonly PointLike[],
    excludeEndpoints = false,
  ): Range[] {
    return this.displayLayer.destroyFoldsContainingBufferPositions(positions, excludeEndpoints)
  }

  /** The ranges of every fold, in buffer order. */
  getFoldedBufferRanges(): Range[] {
    return this.displayLayer
      .foldsIntersectingBufferRange(this.buffer.getRange())
      .map((id) => this.displayLayer.bufferRangeForFold(id))
      .filter((range): range is Range => range !== undefined)
      .sort((a, b) => a.compare(b))
  }

  // Markers and decorations

  /** Marks a buffer range on the default marker layer. */
  markBufferRange(range: RangeLike, options?: MarkOptions): DisplayMarker {
    return this.defaultMarkerLayer.markBufferRange(range, options)
  }

  /** Marks a screen range on the default marker layer. */
  markScreenRange(range: RangeLike, options?: MarkOptions & TranslateOptions): DisplayMarker {
    return this.defaultMarkerLayer.markScreenRange(range, options)
  }

  /** Marks a buffer position on the default marker layer. */
  markBufferPosition(position: PointLike, options?: MarkOptions): DisplayMarker {
    return this.defaultMarkerLayer.markBufferPosition(position, options)
  }

  /** Marks a screen position on the default marker layer. */
  markScreenPosition(position: PointLike, options?: MarkOptions & TranslateOptions): DisplayMarker {
    return this.defaultMarkerLayer.markScreenPosition(position, options)
  }

  /** A new marker layer seen through this editor's display layer. */
  addMarkerLayer(options?: Parameters<TextBuffer['addMarkerLayer']>[0]): DisplayMarkerLayer {
    return new DisplayMarkerLayer(this.displayLayer, this.buffer.addMarkerLayer(options))
  }

  /** Asks views to draw something for a marker (`type`: cursor, highlight, line, ...). */
  decorateMarker(marker: DisplayMarker, properties: DecorationProperties): Decoration {
    return this.decorations.decorate(marker, properties)
  }

  /** Asks views to draw something for every marker of a layer. */
  decorateMarkerLayer(layer: DisplayMarkerLayer, properties: DecorationProperties): Decoration {
    return this.decorations.decorate(layer, properties)
  }

  /** The decorations whose properties include every entry of `filter`. */
  getDecorations(filter?: Partial<DecorationProperties>): Decoration[] {
    return this.decorations.getDecorations(filter)
  }

  /** Calls `callback` with each new decoration. */
  onDidAddDecoration(callback: (decoration: Decoration) => void): Disposable {
    return this.decorations.onDidAddDecoration(callback)
  }

  /** Calls `callback` with each removed decoration. */
  onDidRemoveDecoration(callback: (decoration: Decoration) => void): Disposable {
    return this.decorations.onDidRemoveDecoration(callback)
  }

  /** Calls `callback` after decorations were added, changed or removed. */
  onDidUpdateDecorations(callback: () => void): Disposable {
    return this.decorations.onDidUpdateDecorations(callback)
  }

  // Cursors

  /** The cursors, in the order they were added. */
  getCursors(): Cursor[] {
    this.createLastSelectionIfNeeded()
    return this.cursors.slice()
  }

  /** The most recently added cursor. */
  getLastCursor(): Cursor {
    this.createLastSelectionIfNeeded()
    return this.cursors[this.cursors.length - 1]!
  }

  /** The cursors ordered by buffer position. */
  getCursorsOrderedByBufferPosition(): Cursor[] {
    return this.getCursors().sort((a, b) => a.compare(b))
  }

  /** Whether there is more than one cursor. */
  hasMultipleCursors(): boolean {
    return this.getCursors().length > 1
  }

  /** The last cursor's buffer position. */
  getCursorBufferPosition(): Point {
    return this.getLastCursor().getBufferPosition()
  }

  /** Every cursor's buffer position, in the order they were added. */
  getCursorBufferPositions(): Point[] {
    return this.getCursors().map((cursor) => cursor.getBufferPosition())
  }

  /** The last cursor's screen position. */
  getCursorScreenPosition(): Point {
    return this.getLastCursor().getScreenPosition()
  }

  /** Every cursor's screen position, in the order they were added. */
  getCursorScreenPositions(): Point[] {
    return this.getCursors().map((cursor) => cursor.getScreenPosition())
  }

  /** Moves every cursor to a buffer position (they merge into one). */
  setCursorBufferPosition(position: PointLike, options?: { autoscroll?: boolean }): void {
    this.moveCursors((cursor) => cursor.setBufferPosition(position, options))
  }

  /** Moves every cursor to a screen position (they merge into one). */
  setCursorScreenPosition(
    position: PointLike,
    options?: TranslateOptions & { autoscroll?: boolean },
  ): void {
    this.moveCursors((cursor) => cursor.setScreenPosition(position, options))
  }

  /** Adds a cursor at a buffer position; returns it (or the one it merged into). */
  addCursorAtBufferPosition(position: PointLike, options?: { autoscroll?: boolean }): Cursor {
    this.selectionsMarkerLayer.markBufferPosition(position, { invalidate: 'never' })
    const cursor = this.getLastSelection().cursor
    if (options?.autoscroll !== false) cursor.autoscroll()
    return cursor
  }

  /** Adds a cursor at a screen position; returns it (or the one it merged into). */
  addCursorAtScreenPosition(
    position: PointLike,
    options?: TranslateOptions & { autoscroll?: boolean },
  ): Cursor {
    this.selectionsMarkerLayer.markScreenPosition(position, { invalidate: 'never', ...options })
    const cursor = this.getLastSelection().cursor
    if (options?.autoscroll !== false) cursor.autoscroll()
    return cursor
  }

  /** Runs `move` on every cursor, then merges cursors that met. */
  moveCursors(move: (cursor: Cursor) => void): void {
    this.buffer.holdingUpdates(() => {
      for (const cursor of this.getCursors()) move(cursor)
      this.mergeCursors()
    })
  }

  /** Destroys cursors at the same buffer position as an earlier one. */
  mergeCursors(): void {
    // A buffer position is one character offset: compare those rather than points.
    const seen = new Set<number>()
    for (const cursor of this.getCursors()) {
      const head = cursor.marker.bufferMarker.headOffset
      if (seen.has(head)) cursor.destroy()
      else seen.add(head)
    }
  }

  /** Selects the whole rows of every selection. */
  selectLinesContainingCursors(): void {
    this.expandSelectionsForward((selection) => selection.selectLine())
  }

  /** Selects the word under every cursor. */
  selectWordsContainingCursors(): void {
    this.expandSelectionsForward((selection) => selection.selectWord())
  }

  /** Selects a marker's range when it is valid; returns the range. */
  selectMarker(marker: DisplayMarker): Range | undefined {
    if (!marker.isValid()) return undefined
    const range = marker.getBufferRange()
    this.setSelectedBufferRange(range)
    return range
  }

  // Selections

  /** The selections, in the order they were added. */
  getSelections(): Selection[] {
    this.createLastSelectionIfNeeded()
    return this.selections.slice()
  }

  /** The most recently added selection. */
  getLastSelection(): Selection {
    this.createLastSelectionIfNeeded()
    return this.selections[this.selections.length - 1]!
  }

  /** The selections ordered by buffer range. */
  getSelectionsOrderedByBufferPosition(): Selection[] {
    return this.getSelections().sort((a, b) => a.compare(b))
  }

  /** The last selection's text. */
  getSelectedText(): string {
    return this.getLastSelection().getText()
  }

  /** The last selection's buffer range. */
  getSelectedBufferRange(): Range {
    return this.getLastSelection().getBufferRange()
  }

  /** Every selection's buffer range, in the order they were added. */
  getSelectedBufferRanges(): Range[] {
    return this.getSelections().map((selection) => selection.getBufferRange())
  }

  /** The last selection's screen range. */
  getSelectedScreenRange(): Range {
    return this.getLastSelection().getScreenRange()
  }

  /** Every selection's screen range, in the order they were added. */
  getSelectedScreenRanges(): Range[] {
    return this.getSelections().map((selection) => selection.getScreenRange())
  }

  /** Selects one buffer range (other selections go). */
  setSelectedBufferRange(range: RangeLike, options?: SetRangeOptions): void {
    this.setSelectedBufferRanges([range], options)
  }

  /** Selects buffer ranges: the first selections take them, extra ones go, new ones are added. */
  setSelectedBufferRanges(ranges: readonly RangeLike[], options: SetRangeOptions = {}): void {
    this.setSelectedRanges(
      ranges,
      options,
      (selection, range) => selection.setBufferRange(range, options),
      (range) => this.addSelectionForBufferRange(range, options),
    )
  }

  /** Selects one screen range (other selections go). */
  setSelectedScreenRange(range: RangeLike, options?: SetRangeOptions): void {
    this.setSelectedBufferRange(this.bufferRangeForScreenRange(range), options)
  }

  /** Selects screen ranges, as `setSelectedBufferRanges`. */
  setSelectedScreenRanges(ranges: readonly RangeLike[], options: SetRangeOptions = {}): void {
    this.setSelectedRanges(
      ranges,
      options,
      (selection, range) => selection.setScreenRange(range, options),
      (range) => this.addSelectionForScreenRange(range, options),
    )
  }

  /** Adds a selection for a buffer range; returns it (or the one it merged into). */
  addSelectionForBufferRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    const bufferRange = Range.fromObject(range)
    if (!options.preserveFolds) {
      this.displayLayer.destroyFoldsContainingBufferPositions(
        [bufferRange.start, bufferRange.end],
        true,
      )
    }
    this.selectionsMarkerLayer.markBufferRange(bufferRange, {
      invalidate: 'never',
      reversed: options.reversed ?? false,
    })
    const selection = this.getLastSelection()
    if (options.autoscroll !== false) selection.autoscroll()
    return selection
  }

  /** Adds a selection for a screen range. */
  addSelectionForScreenRange(range: RangeLike, options: SetRangeOptions = {}): Selection {
    return this.addSelectionForBufferRange(this.bufferRangeForScreenRange(range), options)
  }

  /** Extends the last selection to a buffer position, then merges. */
  selectToBufferPosition(position: PointLike): void {
    const last = this.getLastSelection()
    last.selectToBufferPosition(position)
    this.mergeIntersectingSelections({ reversed: last.isReversed() })
  }

  /** Extends the last selection to a screen position, then merges. */
  selectToScreenPosition(
    position: PointLike,
    options?: TranslateOptions & { suppressSelectionMerge?: boolean },
  ): void {
    const last = this.getLastSelection()
    last.selectToScreenPosition(position, options)
    if (!options?.suppressSelectionMerge) {
      this.mergeIntersectingSelections({ reversed: last.isReversed() })
    }
  }

  /** Selects the whole buffer. */
  selectAll(): void {
    this.expandSelectionsForward((selection) => selection.selectAll())
  }

  /** Reduces to the last cursor's selection, emptied. */
  clearSelections(options?: { autoscroll?: boolean }): void {
    this.consolidateSelections()
    this.getLastSelection().clear(options)
  }

  /** Keeps only the first selection; true when there were several. */
  consolidateSelections(): boolean {
    const selections = this.getSelections()
    if (selections.length <= 1) return false
    for (const selection of selections.slice(1)) selection.destroy()
    selections[0]!.autoscroll({ center: true })
    return true
  }

  /** Whether any selection meets a buffer range. */
  selectionIntersectsBufferRange(range: RangeLike): boolean {
    return this.getSelections().some((selection) => selection.intersectsBufferRange(range))
  }

  /** Runs `fn` on every selection, then merges those that met. */
  expandSelectionsForward(fn: (selection: Selection) => void): void {
    this.mergeIntersectingSelections(() => {
      for (const selection of this.getSelections()) fn(selection)
    })
  }

  /** Runs `fn` on every selection, then merges those that met into reversed selections. */
  expandSelectionsBackward(fn: (selection: Selection) => void): void {
    this.mergeIntersectingSelections({ reversed: true }, () => {
      for (const selection of this.getSelections()) fn(selection)
    })
  }

  /**
   * Merges selections that overlap (or touch, when one is empty). With `fn`, runs it first
   * with merging suppressed. `options` go to each merge, as Atom passes them.
   */
  mergeIntersectingSelections<T>(fn?: () => T): T | undefined
  mergeIntersectingSelections<T>(options: SetRangeOptions, fn?: () => T): T | undefined
  mergeIntersectingSelections<T>(
    first?: SetRangeOptions | (() => T),
    second?: () => T,
  ): T | undefined {
    const options = typeof first === 'function' || first === undefined ? {} : first
    const fn = typeof first === 'function' ? first : second
    return this.mergeSelections(options, fn, (previous, current) => {
      const exclusive = !current.isEmpty() && !previous.isEmpty()
      return previous.intersectsWith(current, exclusive)
    })
  }

  /** Merges selections whose screen rows meet (Atom does this before deleting lines). */
  mergeSelectionsOnSameRows(): void {
    this.mergeSelections({}, undefined, (previous, current) => {
      const { start, end } = current.getScreenRange()
      return previous.intersectsScreenRowRange(start.row, end.row)
    })
  }

  /** Runs `fn` without merging selections during or after it; returns its result. */
  avoidMergingSelections<T>(fn: () => T): T | undefined {
    return this.mergeSelections({}, fn, () => false)
  }

  // Events

  /** Calls `callback` with each cursor now and each one added later. */
  observeCursors(callback: (cursor: Cursor) => void): Disposable {
    for (const cursor of this.getCursors()) callback(cursor)
    return this.onDidAddCursor(callback)
  }

  /** Calls `callback` with each added cursor. */
  onDidAddCursor(callback: (cursor: Cursor) => void): Disposable {
    return this.emitter.on('did-add-cursor', callback)
  }

  /** Calls `callback` with each removed cursor. */
  onDidRemoveCursor(callback: (cursor: Cursor) => void): Disposable {
    return this.emitter.on('did-remove-cursor', callback)
  }

  /** Calls `callback` with each selection now and each one added later. */
  observeSelections(callback: (selection: Selection) => void): Disposable {
    for (const selection of this.getSelections()) callback(selection)
    return this.onDidAddSelection(callback)
  }

  /** Calls `callback` with each added selection. */
  onDidAddSelection(callback: (selection: Selection) => void): Disposable {
    return this.emitter.on('did-add-selection', callback)
  }

  /** Calls `callback` with each removed selection. */
  onDidRemoveSelection(callback: (selection: Selection) => void): Disposable {
    return this.emitter.on('did-remove-selection', callback)
  }

  /** Calls `callback` when any cursor moves. */
  onDidChangeCursorPosition(callback: (event: CursorPositionChangeEvent) => void): Disposable {
    return this.emitter.on('did-change-cursor-position', callback)
  }

  /** Calls `callback` when any selection's range changes. */
  onDidChangeSelectionRange(callback: (event: SelectionRangeChangeEvent) => void): Disposable {
    return this.emitter.on('did-change-selection-range', callback)
  }

  /** Calls `callback` when soft wrap is turned on or off. */
  onDidChangeSoftWrapped(callback: (softWrapped: boolean) => void): Disposable {
    return this.emitter.on('did-change-soft-wrapped', callback)
  }

  /** Calls `callback` when a cursor or selection asks to be scrolled into sight. */
  onDidRequestAutoscroll(callback: (request: AutoscrollRequest) => void): Disposable {
    return this.emitter.on('did-request-autoscroll', callback)
  }

  /** Calls `callback` once when the editor is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.once('did-destroy', callback)
  }

  /** Asks views to scroll a screen range into sight. */
  scrollToScreenRange(screenRange: Range, options: AutoscrollRequest['options'] = {}): void {
    this.emitter.emit('did-request-autoscroll', { screenRange, options })
  }

  /** Asks the view to scroll a screen position into sight. */
  scrollToScreenPosition(position: PointLike, options: AutoscrollRequest['options'] = {}): void {
    const point = this.clipScreenPosition(position)
    this.scrollToScreenRange(new Range(point, point), options)
  }

  /** Asks the view to scroll a buffer position into sight. */
  scrollToBufferPosition(position: PointLike, options: AutoscrollRequest['options'] = {}): void {
    this.scrollToScreenPosition(this.screenPositionForBufferPosition(position), options)
  }

  // Lifetime

  /** Whether `destroy` was called. */
  isDestroyed(): boolean {
    return !this.alive
  }

  /** Releases the editor's markers, layers and listeners; a shared buffer stays. */
  destroy(): void {
    if (!this.alive) return
    this.alive = false
    this.subscriptions.dispose()
    this.indentation.dispose()
    this.decorations.destroy()
    for (const selection of this.selections.slice()) selection.destroy()
    this.selectionsMarkerLayer.destroy()
    this.defaultMarkerLayer.destroy()
    this.displayLayer.destroy()
    this.languageMode.destroy()
    this.emitter.emit('did-destroy')
    this.emitter.dispose()
  }

  // Called by cursors and selections (package internal)

  /** @internal Relays a cursor move to editor listeners. */
  cursorMoved(event: CursorPositionChangeEvent): void {
    this.emitter.emit('did-change-cursor-position', event)
  }

  /** @internal Relays a selection change to editor listeners. */
  selectionRangeChanged(event: SelectionRangeChangeEvent): void {
    this.selectionsMayOverlap = true
    this.emitter.emit('did-change-selection-range', event)
  }

  /** @internal Forgets a destroyed selection and its cursor. */
  removeSelection(selection: Selection): void {
    removeItem(this.cursors, selection.cursor)
    removeItem(this.selections, selection)
    selection.marker.owner = null
    this.emitter.emit('did-remove-cursor', selection.cursor)
    this.emitter.emit('did-remove-selection', selection)
  }

  /**
   * @internal Whether `operation` may change the text: not when the editor is read-only and
   * `bypassReadOnly` is not set, in which case the attempt is reported.
   */
  ensureWritable(operation: string, options: { bypassReadOnly?: boolean } = {}): boolean {
    if (options.bypassReadOnly === true || !this.readOnly) return true
    this.didAttemptReadOnlyEdit(operation)
    return false
  }

  /** Tells `onDidAttemptReadOnlyEdit` listeners about a refused edit (package internal). */
  didAttemptReadOnlyEdit(operation: string): void {
    this.emitter.emit('did-attempt-read-only-edit', { operation })
  }

  // Internals

  private setSelectedRanges(
    ranges: readonly RangeLike[],
    options: SetRangeOptions,
    set: (selection: Selection, range: Range) => void,
    add: (range: Range) => void,
  ): void {
    if (!Array.isArray(ranges) || ranges.length === 0) {
      throw new Error('Passed an empty array to setSelectedBufferRanges')
    }
    const selections = this.getSelections()
    for (const selection of selections.slice(ranges.length)) selection.destroy()
    this.mergeIntersectingSelections(options, () => {
      ranges.forEach((range, i) => {
        const selection = selections[i]
        if (selection !== undefined) set(selection, Range.fromObject(range))
        else add(Range.fromObject(range))
      })
    })
  }

  private mergeSelections<T>(
    options: SetRangeOptions,
    fn: (() => T) | undefined,
    shouldMerge: (previous: Selection, current: Selection) => boolean,
  ): T | undefined {
    if (this.suppressSelectionMerging) return fn?.()
    this.suppressSelectionMerging = true
    let result: T | undefined
    try {
      result = fn?.()
    } finally {
      this.suppressSelectionMerging = false
    }
    const [first, ...rest] = this.getSelectionsOrderedByBufferPosition()
    let previous = first!
    for (const selection of rest) {
      if (shouldMerge(previous, selection)) previous.merge(selection, options)
      else previous = selection
    }
    this.selectionsMayOverlap = false
    return result
  }

  private addSelection(marker: DisplayMarker): void {
    const cursor = new Cursor(this, marker)
    this.cursors.push(cursor)
    const selection = new Selection(this, marker, cursor)
    this.selections.push(selection)
    // When nothing moved since the last full merge, only the new selection can meet another:
    // look for that one in the marker index instead of sorting every selection.
    if (this.selectionsMayOverlap || this.meetsAnotherSelection(selection)) {
      this.mergeIntersectingSelections()
    }
    if (!selection.destroyed) {
      this.emitter.emit('did-add-cursor', cursor)
      this.emitter.emit('did-add-selection', selection)
    }
  }

  private meetsAnotherSelection(selection: Selection): boolean {
    const layer = this.selectionsMarkerLayer
    const markers = layer.bufferLayer.markersIntersectingMarker(selection.marker.bufferMarker)
    for (let i = 0; i < markers.length; i++) {
      const other = selectionOf(layer.markerFor(markers[i]!))
      if (other == null || other === selection) continue
      if (other.intersectsWith(selection, !other.isEmpty() && !selection.isEmpty())) return true
    }
    return false
  }

  private createLastSelectionIfNeeded(): void {
    if (this.selections.length === 0 && this.alive) {
      this.addSelectionForBufferRange(new Range(Point.ZERO, Point.ZERO), {
        autoscroll: false,
        preserveFolds: true,
      })
    }
  }
}

// The editor-wide moves and extensions live in multi-cursor-commands.ts, the editor-wide text
// changes, clipboard, undo and indentation in editor-edits.ts, the line commands in
// line-commands.ts, the fold commands in fold-commands.ts.
export interface TextEditor extends MultiCursorCommands, EditorEdits, LineCommands, FoldCommands {}
Object.assign(TextEditor.prototype, multiCursorCommands, editorEdits, lineCommands, foldCommands)

/** The selection a marker of the selections layer stands for. */
const selectionOf = (marker: DisplayMarker): Selection | null =>
  marker.owner instanceof Selection ? marker.owner : null

const removeItem = <T>(items: T[], item: T): void => {
  const index = items.indexOf(item)
  if (index !== -1) items.splice(index, 1)
}
