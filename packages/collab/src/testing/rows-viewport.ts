/**
 * A view's rows in sight, without a DOM, for tests of following in Node: a window of `height`
 * screen rows over an editor that scrolls as `@tandem/view` does (an autoscroll request brings
 * its head into sight, scrolling as little as it can), and that a test scrolls as its user.
 */
import type { TextEditor } from '@tandem/editor'
import { type Disposable, Emitter, Point, Range } from '@tandem/text'
import type { FollowViewport } from '../following.js'

/** See the module comment. */
export class RowsViewport implements FollowViewport {
  /** The first screen row in sight. */
  top = 0
  private readonly emitter = new Emitter<{ 'did-change': { readonly byUser: boolean } }>()
  private readonly subscription: Disposable

  constructor(
    readonly editor: TextEditor,
    readonly height: number,
  ) {
    this.subscription = editor.onDidRequestAutoscroll(({ screenRange }) => {
      const { start, end } = screenRange
      if (start.row < this.top) this.scrollTo(start.row, false)
      else if (end.row >= this.top + height) this.scrollTo(end.row - height + 1, false)
    })
  }

  getVisibleBufferRange(): Range {
    const last = Math.min(this.top + this.height, this.editor.getScreenLineCount()) - 1
    return this.editor.bufferRangeForScreenRange(
      new Range(new Point(this.top, 0), new Point(Math.max(this.top, last), Infinity)),
    )
  }

  onDidChangeVisibleRange(callback: (event: { readonly byUser: boolean }) => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  scrollBufferPositionToTop(position: Point): void {
    this.scrollTo(this.editor.screenPositionForBufferPosition(position).row, false)
  }

  /** Scrolls to screen row `top` as the user would (wheel or scroll bar). */
  scrollByUser(top: number): void {
    this.scrollTo(top, true)
  }

  /** The buffer rows in sight, as `[first, last]`. */
  rows(): [number, number] {
    const { start, end } = this.getVisibleBufferRange()
    return [start.row, end.row]
  }

  dispose(): void {
    this.subscription.dispose()
    this.emitter.dispose()
  }

  private scrollTo(row: number, byUser: boolean): void {
    const top = Math.max(0, Math.min(row, this.editor.getScreenLineCount() - this.height))
    if (top === this.top && !byUser) return
    this.top = top
    this.emitter.emit('did-change', { byUser })
  }
}
