/**
 * The bracket matcher of a view: the editor package's `BracketMatcher` (closing brackets and
 * quotes as they are typed, the pair at the cursor), and the pair at the cursor marked on a
 * layer of its own, decorated as `bracket-matcher` highlights for the overlay to draw.
 */
import {
  BracketMatcher,
  type Decoration,
  type DisplayMarkerLayer,
  type TextEditor,
} from '@tandem/editor'
import type { Disposable } from '@tandem/text'

/** How long the highlight may wait for idle time, in milliseconds. */
const MARK_TIMEOUT = 100

/**
 * A bracket matcher over `editor` and the highlight of its pair.
 *
 * @example const brackets = new BracketHighlight(editor, true); brackets.matcher.goToMatchingBracket()
 */
export class BracketHighlight {
  /** The matcher, for the bracket commands. */
  readonly matcher: BracketMatcher
  private readonly layer: DisplayMarkerLayer
  private readonly decoration: Decoration
  private readonly subscription: Disposable
  private pending: number | null = null

  /**
   * With a `window`, the pair is looked for in idle time after each change, never in the
   * keystroke's own task: finding a far partner can read (and tokenize) thousands of rows.
   */
  constructor(
    editor: TextEditor,
    autoClose: boolean,
    private readonly window: Window | null = null,
  ) {
    this.matcher = new BracketMatcher(editor, { autoClose })
    this.layer = editor.addMarkerLayer()
    this.decoration = editor.decorateMarkerLayer(this.layer, {
      type: 'highlight',
      class: 'bracket-matcher',
    })
    this.subscription = this.matcher.onDidChangeMatch(() => this.schedule())
    this.schedule()
  }

  /** Stops matching and removes the highlight. */
  dispose(): void {
    this.cancel()
    this.subscription.dispose()
    this.matcher.destroy()
    this.decoration.destroy()
    this.layer.destroy()
  }

  /** Marks the pair again once the page is idle (at once without a window). */
  private schedule(): void {
    const window = this.window
    if (window === null) {
      this.mark()
      return
    }
    if (this.pending !== null) return
    const run = () => {
      this.pending = null
      this.mark()
    }
    this.pending =
      typeof window.requestIdleCallback === 'function'
        ? window.requestIdleCallback(run, { timeout: MARK_TIMEOUT })
        : window.setTimeout(run, 0)
  }

  private cancel(): void {
    if (this.pending === null || this.window === null) return
    if (typeof this.window.cancelIdleCallback === 'function') {
      this.window.cancelIdleCallback(this.pending)
    } else {
      this.window.clearTimeout(this.pending)
    }
    this.pending = null
  }

  /** Marks the bracket pair at the cursor (none when there is none). */
  private mark(): void {
    for (const marker of this.layer.getMarkers()) marker.destroy()
    for (const range of this.matcher.matchingBracketRanges() ?? []) {
      this.layer.markBufferRange(range, { invalidate: 'never' })
    }
  }
}
