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
import { Clipboard } from './clipboard.js'
import { type Decoration, type DecorationProperties, DecorationSet } from './decorations.js'
import { type DisplayMarker, DisplayMarkerLayer } from './display-marker.js'
import { type EditorContext, registerContext } from './editor-context.js'
import {
  type AutoscrollRequest,
  checkOption,
  type EditorEvents,
  FOLD_PLACEHOLDER,
  type TextEditorOptions,
} from './editor-options.js'
import { IndentationDetection } from './indentation-detection.js'
import { paragraphRangeAtRow } from './paragraphs.js'
import { SelectionSet } from './selection-set.js'
import { DEFAULT_NON_WORD_CHARACTERS } from './words.js'

/**
 * The editor's state and its plainest queries: the text, screen coordinates, settings,
 * language, markers and decorations, scroll requests and its lifetime. The layers above add
 * cursors and selections, commands and text changes.
 */
export class EditorBase {
  /** The text buffer (shared by editors of the same buffer). */
  readonly buffer: TextBuffer
  /** Screen coordinates: folds, tabs and soft wrap. */
  readonly displayLayer: DisplayLayer
  /** The markers of the selections (one per cursor). */
  readonly selectionsMarkerLayer: DisplayMarkerLayer
  /** Markers made with `markBufferRange` and friends. */
  readonly defaultMarkerLayer: DisplayMarkerLayer
  /** The selections and their cursors: order, merging, adding and removing. */
  readonly selectionSet: SelectionSet
  /** @internal What cursors, selections and commands work with. */
  protected readonly context: EditorContext
  /** @internal */ protected readonly emitter = new Emitter<EditorEvents>()
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
    this.context = this.makeContext()
    registerContext(this, this.context)
    this.selectionSet = new SelectionSet(this.context)
    this.selectionsMarkerLayer = this.selectionSet.layer
    this.decorations.decorate(this.selectionsMarkerLayer, { type: 'cursor' })
    this.selectionSet.addCursorAtBufferPosition([0, 0])
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
    if (!this.context.mayEdit('setText', options)) return undefined
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
    return this.selectionSet.getLastCursor().getCurrentParagraphBufferRange()
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

  // Events

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
    this.selectionSet.destroy()
    this.defaultMarkerLayer.destroy()
    this.displayLayer.destroy()
    this.languageMode.destroy()
    this.emitter.emit('did-destroy')
    this.emitter.dispose()
  }

  // Internals

  private makeContext(): EditorContext {
    return {
      buffer: this.buffer,
      displayLayer: this.displayLayer,
      markers: this.defaultMarkerLayer,
      clipboard: this.clipboard,
      languageMode: () => this.languageMode,
      softTabs: () => this.softTabs,
      tabLength: () => this.getTabLength(),
      nonWordCharacters: (position) => this.getNonWordCharacters(position),
      autoIndent: () => this.autoIndent,
      autoIndentOnPaste: () => this.autoIndentOnPaste,
      undoGroupingInterval: () => this.undoGroupingInterval,
      scrollToScreenRange: (range, options) => this.scrollToScreenRange(range, options),
      mayEdit: (operation, options) => {
        if (options?.bypassReadOnly === true || !this.readOnly) return true
        this.emitter.emit('did-attempt-read-only-edit', { operation })
        return false
      },
    }
  }
}
