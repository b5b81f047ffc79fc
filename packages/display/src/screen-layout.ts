/**
 * The layout of a whole buffer on screen, kept in step with it: one layout per region in a
 * `RegionTree`, laid out again where the text, the folds or the settings changed, and the
 * screen rows replaced since the last report in a `RowChanges`.
 *
 * A buffer change lays out again only the regions it touched; a fold or unfold, only the
 * regions under it; a fold that now runs past the span takes in the regions it covers.
 */
import type { BufferChange, MarkerLayer, TextBuffer } from '@tandem/buffer'
import { type CollectedFolds, collectFolds } from './folds.js'
import { type LayoutSettings, type LineSource, layoutRegion, type RegionLayout } from './region.js'
import { RegionTree } from './region-tree.js'
import { RowChanges } from './row-changes.js'

/**
 * The regions of a buffer laid out for the screen, and the screen rows replaced since they
 * were last taken. Every method takes the settings to lay out with; the caller owns them.
 *
 * @example
 * const layout = new ScreenLayout(buffer, lines, foldLayer)
 * layout.layOutAll(settings)
 * layout.layOutRows(2, 5, settings) // after folding rows 2..4
 * layout.replacedRows.take() // => the screen rows that changed
 */
export class ScreenLayout {
  /** The regions and their layouts, counting buffer and screen rows. */
  readonly tree = new RegionTree()
  /** Screen rows replaced since they were last taken. */
  readonly replacedRows = new RowChanges()

  constructor(
    private readonly buffer: TextBuffer,
    /** The buffer's lines as the layout reads them. */
    private readonly lines: LineSource,
    /** The marker layer holding the folds. */
    private readonly foldLayer: MarkerLayer,
  ) {}

  /** Lays out the whole buffer, noting nothing as replaced (for a first layout). */
  layOutAll(settings: LayoutSettings): void {
    const lineCount = this.buffer.getLineCount()
    const folds = collectFolds(this.foldLayer, 0, lineCount)
    const layouts: RegionLayout[] = []
    for (let row = 0; row < lineCount; ) {
      const layout = layoutRegion(row, this.lines, folds.starts, settings)
      layouts.push(layout)
      row += layout.bufferRows
    }
    this.tree.reset(layouts)
  }

  /** Lays out everything again, noting every screen row as replaced. */
  relayoutEverything(settings: LayoutSettings): void {
    const oldRows = this.tree.screenRowCount
    this.layOutAll(settings)
    this.replacedRows.splice(0, oldRows, this.tree.screenRowCount)
  }

  /** Lays out the regions holding buffer rows [`startRow`, `endRow`) again (text unchanged). */
  layOutRows(startRow: number, endRow: number, settings: LayoutSettings): void {
    this.relayout(startRow, endRow, 0, 0, settings)
  }

  /** Lays out what buffer changes touched; `changes` are sorted, in old and new rows. */
  followChanges(changes: readonly BufferChange[], settings: LayoutSettings): void {
    // Changes in one region are laid out together; spans are taken last first, so the rows
    // before each one are still as they were.
    const spans: { start: number; end: number; shiftBefore: number; shiftAfter: number }[] = []
    for (const change of changes) {
      const start = this.tree.findByBufferRow(change.oldRange.start.row)
      const end = this.tree.findByBufferRow(change.oldRange.end.row)
      const span = {
        start: start.bufferRow,
        end: end.bufferRow + end.layout.bufferRows,
        shiftBefore: change.newRange.start.row - change.oldRange.start.row,
        shiftAfter: change.newRange.end.row - change.oldRange.end.row,
      }
      const previous = spans[spans.length - 1]
      if (previous !== undefined && span.start < previous.end) {
        previous.end = Math.max(previous.end, span.end)
        previous.shiftAfter = span.shiftAfter
      } else {
        spans.push(span)
      }
    }
    for (let i = spans.length - 1; i >= 0; i--) {
      const span = spans[i]!
      this.relayout(span.start, span.end, span.shiftBefore, span.shiftAfter, settings)
    }
  }

  /**
   * Replaces the regions holding old buffer rows [`startRow`, `endRow`) by a layout of the
   * text there now: rows before `startRow` moved by `shiftBefore`, rows from `endRow` on by
   * `shiftAfter`. Takes in following regions while a fold runs on past the span.
   */
  private relayout(
    startRow: number,
    endRow: number,
    shiftBefore: number,
    shiftAfter: number,
    settings: LayoutSettings,
  ): void {
    const first = this.tree.findByBufferRow(startRow)
    const last = this.tree.findByBufferRow(Math.max(startRow, endRow - 1))
    const oldStart = first.bufferRow
    let oldEnd = last.bufferRow + last.layout.bufferRows
    const oldScreenStart = first.screenRow
    let oldScreenEnd = last.screenRow + last.layout.lengths.length
    let row = oldStart + shiftBefore
    const lineCount = this.buffer.getLineCount()
    let folds: CollectedFolds = collectFolds(
      this.foldLayer,
      row,
      Math.max(row + 1, oldEnd + shiftAfter),
    )
    const layouts: RegionLayout[] = []
    let newScreenRows = 0
    for (;;) {
      while (row < oldEnd + shiftAfter && row < lineCount) {
        if (row >= folds.endRow) folds = collectFolds(this.foldLayer, row, oldEnd + shiftAfter)
        const layout = layoutRegion(row, this.lines, folds.starts, settings)
        layouts.push(layout)
        newScreenRows += layout.lengths.length
        row += layout.bufferRows
      }
      if (row <= oldEnd + shiftAfter || oldEnd >= this.tree.bufferRowCount) break
      // A fold now runs past the span: the old regions it covers are laid out again too.
      const covered = this.tree.findByBufferRow(row - shiftAfter - 1)
      oldEnd = covered.bufferRow + covered.layout.bufferRows
      oldScreenEnd = covered.screenRow + covered.layout.lengths.length
    }
    this.tree.replace(oldStart, oldEnd, layouts)
    this.replacedRows.splice(oldScreenStart, oldScreenEnd - oldScreenStart, newScreenRows)
  }
}
