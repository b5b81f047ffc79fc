/// <reference lib="dom" />
/**
 * Tokenizing in the browser's idle time, so a frame never waits for it: rows in sight that a
 * frame drew plain get their tokens first (their own, or guessed when the rows above them are
 * not tokenized yet), then the rows up to the last one in sight are tokenized for real, a few
 * milliseconds at a time. Rows below the screen are left alone.
 */
import type { TextEditor } from '@tandem/editor'

/** The editor's language mode, as the view sees it. */
type LanguageMode = ReturnType<TextEditor['getLanguageMode']>

/** The longest one idle step tokenizes, in milliseconds. */
const STEP_MILLISECONDS = 8

/** How long to wait for idle time before tokenizing anyway, in milliseconds. */
const IDLE_TIMEOUT = 200

/**
 * Keeps tokenizing `mode()`'s rows in idle callbacks until every row up to the last in sight
 * is done; `request` asks again after an edit or a scroll.
 *
 * @example const idle = new IdleTokenizing(window, editor); idle.request(40)
 */
export class IdleTokenizing {
  private handle: number | null = null
  private lastRowInSight = 0
  /** Rows drawn plain for want of tokens, and what to call once they have them. */
  private plainRows: number[] = []
  private onColoured: (() => void) | null = null

  constructor(
    private readonly window: Window,
    private readonly editor: TextEditor,
  ) {}

  private mode(): LanguageMode {
    return this.editor.getLanguageMode()
  }

  /** Makes sure tokenizing goes on until the rows up to `lastRowInSight` are done. */
  request(lastRowInSight: number): void {
    this.lastRowInSight = lastRowInSight
    if (this.handle !== null || this.mode().tokenizeBufferRowsFor === undefined) return
    this.schedule()
  }

  /**
   * Gets tokens for buffer `rows` (drawn plain) in idle time, then calls `coloured` once, to
   * draw them again.
   */
  colour(rows: readonly number[], coloured: () => void): void {
    this.plainRows = [...rows]
    this.onColoured = coloured
    if (this.handle === null) this.schedule()
  }

  /** Stops tokenizing. */
  dispose(): void {
    if (this.handle === null) return
    if (typeof this.window.cancelIdleCallback === 'function') {
      this.window.cancelIdleCallback(this.handle)
    } else {
      this.window.clearTimeout(this.handle)
    }
    this.handle = null
  }

  /** Gets tokens for the plain rows until `end`; true when none is left. */
  private colourPlainRows(mode: LanguageMode, end: number): boolean {
    const tokensFor = mode.highlightTokensForBufferRow
    const rows = this.plainRows
    if (tokensFor !== undefined) {
      const lineCount = this.editor.getLineCount()
      // The first rows first: a guess for one covers the rows after it.
      while (rows.length > 0 && performance.now() < end) {
        const row = rows.shift()!
        if (row < lineCount) tokensFor.call(mode, row, true)
      }
    } else {
      rows.length = 0
    }
    if (rows.length > 0) return false
    const coloured = this.onColoured
    this.onColoured = null
    coloured?.()
    return true
  }

  private schedule(): void {
    const step = (deadline?: IdleDeadline) => {
      this.handle = null
      const mode = this.mode()
      const budget = Math.min(STEP_MILLISECONDS, Math.max(1, deadline?.timeRemaining() ?? 4))
      const end = performance.now() + budget
      if (!this.colourPlainRows(mode, end)) return this.schedule()
      const tokenize = mode.tokenizeBufferRowsFor
      if (tokenize === undefined) return
      const left = Math.max(0, end - performance.now())
      if (!tokenize.call(mode, left, this.lastRowInSight)) this.schedule()
    }
    this.handle =
      typeof this.window.requestIdleCallback === 'function'
        ? this.window.requestIdleCallback(step, { timeout: IDLE_TIMEOUT })
        : this.window.setTimeout(() => step(), 0)
  }
}
