/// <reference lib="dom" />
/**
 * The rendered rows in their syntax colours, without a frame waiting for a tokenizer. An
 * update tokenizes the rows an edit left to do within a few milliseconds; rows in sight with
 * no tokens yet (after a jump, on opening) are drawn plain and coloured in idle time, and so
 * are the rows above the screen. The language mode's highlighting is followed: a grammar
 * attached redraws the rows in sight, and so do rows re-tokenized outside an update when they
 * are in sight. The root scope's classes go on the lines' container, as Atom puts them around
 * each line.
 */
import type { ScreenLine } from '@tandem/display'
import type { TextEditor } from '@tandem/editor'
import { CompositeDisposable, Point } from '@tandem/text'
import { classNameForScopes, rowContent } from './highlight.js'
import { IdleTokenizing } from './idle-tokenizing.js'
import type { LinesLayer } from './lines.js'

/** How long an update may tokenize the rows an edit left to do, in milliseconds. */
const TOKENIZE_MILLISECONDS_PER_FRAME = 4

/**
 * Draws rows through `lines` in the colours of `editor`'s language mode, and asks for an
 * update (`scheduleUpdate`) when colours arrive for rows it drew.
 *
 * @example
 * const colouring = new SyntaxColouring(editor, lines, window, () => view.scheduleUpdate())
 * colouring.watchLanguage(); colouring.render(0, 40, editor.displayLayer.getScreenLines(0, 40), 21)
 */
export class SyntaxColouring {
  private languageSubscriptions: CompositeDisposable | null = null
  private rootScopeClasses: string[] = []
  /** Whether the rows are being rendered (tokenizing them then needs no new update). */
  private rendering = false
  private readonly idleTokenizing: IdleTokenizing | null
  /** The buffer rows the rendered screen rows show, first to last. */
  private shownBufferRows = { first: 0, last: -1 }

  constructor(
    private readonly editor: TextEditor,
    private readonly lines: LinesLayer,
    window: Window | null,
    private readonly scheduleUpdate: () => void,
  ) {
    this.idleTokenizing = window === null ? null : new IdleTokenizing(window, editor)
  }

  /** Follows the editor's current language mode (call it again when the grammar changes). */
  watchLanguage(): void {
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
    const container = this.lines.element
    container.classList.remove(...this.rootScopeClasses)
    container.classList.add(...classes)
    this.rootScopeClasses = classes
    this.scheduleUpdate()
  }

  /**
   * Renders screen rows `[startRow, endRow)`, which show `screenLines`, `lineHeight` pixels
   * apart, in the colours their tokens give now.
   */
  render(
    startRow: number,
    endRow: number,
    screenLines: readonly ScreenLine[],
    lineHeight: number,
  ): void {
    const { editor } = this
    const lineAt = (row: number) => screenLines[row - startRow]
    const lastBufferRow = screenLines[screenLines.length - 1]?.bufferRange.end.row ?? 0
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
  }

  /** Stops following the language mode and tokenizing in idle time. Safe twice. */
  dispose(): void {
    this.languageSubscriptions?.dispose()
    this.languageSubscriptions = null
    this.idleTokenizing?.dispose()
  }
}
