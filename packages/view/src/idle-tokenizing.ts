/// <reference lib="dom" />
/**
 * Tokenizing in the browser's idle time, so a large file gets its true colours without a
 * frame ever waiting for the rows above the screen: a few milliseconds at a time, the rows up
 * to the last one in sight. Until they are done, rows far down are drawn from guessed tokens.
 * Rows below the screen are left alone.
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
 * @example const idle = new IdleTokenizing(window, () => editor.getLanguageMode()); idle.request(40)
 */
export class IdleTokenizing {
  private handle: number | null = null
  private lastRowInSight = 0

  constructor(
    private readonly window: Window,
    private readonly mode: () => LanguageMode,
  ) {}

  /** Makes sure tokenizing goes on until the rows up to `lastRowInSight` are done. */
  request(lastRowInSight: number): void {
    this.lastRowInSight = lastRowInSight
    if (this.handle !== null || this.mode().tokenizeBufferRowsFor === undefined) return
    this.schedule()
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

  private schedule(): void {
    const step = (deadline?: IdleDeadline) => {
      this.handle = null
      const mode = this.mode()
      const budget = Math.min(STEP_MILLISECONDS, Math.max(1, deadline?.timeRemaining() ?? 4))
      const tokenize = mode.tokenizeBufferRowsFor
      if (tokenize === undefined) return
      if (!tokenize.call(mode, budget, this.lastRowInSight)) this.schedule()
    }
    this.handle =
      typeof this.window.requestIdleCallback === 'function'
        ? this.window.requestIdleCallback(step, { timeout: IDLE_TIMEOUT })
        : this.window.setTimeout(() => step(), 0)
  }
}
