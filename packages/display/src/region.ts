/**
 * The layout of one region: the buffer rows that folds join into a run of screen rows.
 *
 * A region starts at column 0 of a buffer row that no fold covers and ends at the end of
 * the first line after that which no fold runs past. Most regions are one buffer row. The
 * layout is what soft wrap and folds did to it, as a list of hunks in region-local
 * coordinates (rows counted from the region's first buffer row and first screen row):
 *
 * - a fold hunk maps a non-empty buffer span to one placeholder character on screen;
 * - a soft-wrap hunk maps an empty buffer span to a line break plus the wrapped line's
 *   indentation.
 *
 * Screen columns in hunks are unexpanded (a hard tab counts one); each screen row's length
 * is kept expanded (tabs widened to the next tab stop), with its number of tabs, so that
 * rows without tabs need no walk at all.
 */
import { Point } from '@tandem/text'
import { isCharacterPair, ratioForCharacter } from './characters.js'

/** A fold or a soft wrap, in region-local coordinates; see the module comment. */
export interface Hunk {
  readonly oldStart: Point
  readonly oldEnd: Point
  readonly newStart: Point
  readonly newEnd: Point
}

/** A soft-wrap hunk covers no buffer text. */
export const isSoftWrap = (hunk: Hunk): boolean => hunk.oldStart.isEqual(hunk.oldEnd)

/** How one region is shown. */
export interface RegionLayout {
  /** Buffer rows in the region (at least 1). */
  readonly bufferRows: number
  /** Expanded length of each screen row; its length is the region's screen row count. */
  readonly lengths: readonly number[]
  /** Hard tabs shown on each screen row. */
  readonly tabCounts: readonly number[]
  /** Folds and soft wraps in order. */
  readonly hunks: readonly Hunk[]
}

/** The settings a layout depends on. */
export interface LayoutSettings {
  readonly tabLength: number
  /** Soft-wrap width in columns; `Infinity` when soft wrap is off. */
  readonly softWrapColumn: number
  /** Extra indentation of wrapped rows, in columns. */
  readonly softWrapHangingIndent: number
  /** The character a fold shows as. */
  readonly foldCharacter: string
  /** Width of a character in columns, for soft wrap. */
  readonly ratioForCharacter: (character: string) => number
  /** Whether a soft wrap may go between these two characters. */
  readonly isWrapBoundary: (previous: string, next: string) => boolean
}

/** Lines of the buffer, by row. */
export interface LineSource {
  lineForRow(row: number): string
}

/** Where folds end, by their start: row -> column -> end (merged, non-empty folds only). */
export type FoldStarts = ReadonlyMap<number, ReadonlyMap<number, Point>>

const NO_HUNKS: readonly Hunk[] = Object.freeze([])

/**
 * Lays out the region that starts at buffer row `startRow`: follows folds across rows and
 * breaks screen rows where soft wrap says, as Atom's display layer does.
 *
 * @example layoutRegion(0, { lineForRow: () => 'a\tb' }, new Map(), settings).lengths // => [5] with tabLength 4
 */
export function layoutRegion(
  startRow: number,
  lines: LineSource,
  folds: FoldStarts,
  settings: LayoutSettings,
): RegionLayout {
  const { tabLength, softWrapColumn, softWrapHangingIndent, foldCharacter } = settings
  if (!folds.has(startRow)) {
    // A row too short to wrap, even with every character double width, needs no walk.
    const plain = layoutPlainRow(lines.lineForRow(startRow), tabLength)
    if (
      softWrapColumn === Number.POSITIVE_INFINITY ||
      (settings.ratioForCharacter === ratioForCharacter && 2 * plain.lengths[0]! <= softWrapColumn)
    ) {
      return plain
    }
  }
  const ratio = settings.ratioForCharacter
  const spaceWidth = ratio(' ')
  let hunks: Hunk[] | null = null
  const lengths: number[] = []
  const tabCounts: number[] = []
  // Unexpanded columns of the hard tabs on the current screen row.
  const tabColumns: number[] = []

  let row = startRow
  let line = lines.lineForRow(row)
  let rowFolds = folds.get(row)
  let column = 0
  let screenRow = 0
  let unexpanded = 0
  let expanded = 0
  let width = 0
  let firstNonWhitespace = -1
  // The last place a soft wrap may go (0: none yet), in both columns, width and buffer.
  let boundaryUnexpanded = 0
  let boundaryExpanded = 0
  let boundaryWidth = 0
  let boundaryRow = 0
  let boundaryColumn = 0

  for (;;) {
    const foldEnd = rowFolds?.get(column)
    const previous: string | undefined = line[column - 1]
    const character: string | undefined = foldEnd !== undefined ? foldCharacter : line[column]

    if (firstNonWhitespace < 0) {
      if (character !== ' ' && character !== '\t') firstNonWhitespace = expanded
    } else if (
      previous !== undefined &&
      character !== undefined &&
      settings.isWrapBoundary(previous, character)
    ) {
      boundaryUnexpanded = unexpanded
      boundaryExpanded = expanded
      boundaryWidth = width
      boundaryRow = row
      boundaryColumn = column
    }

    let characterWidth = 0
    if (character === '\t') characterWidth = spaceWidth * (tabLength - (expanded % tabLength))
    else if (character !== undefined) characterWidth = ratio(character)

    if (
      width > 0 &&
      characterWidth > 0 &&
      width + characterWidth > softWrapColumn &&
      previous !== undefined &&
      character !== undefined &&
      !isCharacterPair(previous, character)
    ) {
      let indent = firstNonWhitespace < softWrapColumn ? Math.max(0, firstNonWhitespace) : 0
      if (indent + softWrapHangingIndent < softWrapColumn) indent += softWrapHangingIndent
      const atBoundary = boundaryUnexpanded > 0
      const wrapUnexpanded = atBoundary ? boundaryUnexpanded : unexpanded
      const wrapExpanded = boundaryExpanded > 0 ? boundaryExpanded : expanded
      const wrapWidth = boundaryWidth > 0 ? boundaryWidth : width
      const wrapAt = atBoundary
        ? new Point(boundaryRow - startRow, boundaryColumn)
        : new Point(row - startRow, column)
      hunks ??= []
      insertSoftWrap(hunks, wrapAt, screenRow, wrapUnexpanded, indent)
      lengths.push(wrapExpanded)

      // Tabs after the wrap start at other columns now, so they take other widths.
      let unexpandedAfterTab = indent
      let expandedAfterTab = indent
      let tabsBeforeWrap = 0
      for (let i = 0; i < tabColumns.length; i++) {
        const tabColumn = tabColumns[i]!
        if (tabColumn < wrapUnexpanded) {
          tabsBeforeWrap++
          continue
        }
        const movedColumn = indent + tabColumn - wrapUnexpanded
        expandedAfterTab += movedColumn - unexpandedAfterTab
        expandedAfterTab += tabLength - (expandedAfterTab % tabLength)
        unexpandedAfterTab = movedColumn + 1
        tabColumns[i - tabsBeforeWrap] = movedColumn
      }
      tabCounts.push(tabsBeforeWrap)
      tabColumns.length -= tabsBeforeWrap

      screenRow++
      unexpanded = unexpanded - wrapUnexpanded + indent
      expanded = expandedAfterTab + unexpanded - unexpandedAfterTab
      width = indent * spaceWidth + (width - wrapWidth)
      boundaryUnexpanded = 0
      boundaryExpanded = 0
      boundaryWidth = 0
    }

    if (foldEnd !== undefined) {
      hunks ??= []
      hunks.push({
        oldStart: new Point(row - startRow, column),
        oldEnd: new Point(foldEnd.row - startRow, foldEnd.column),
        newStart: new Point(screenRow, unexpanded),
        newEnd: new Point(screenRow, unexpanded + 1),
      })
      unexpanded++
      expanded++
      width += characterWidth
      if (foldEnd.row !== row) {
        row = foldEnd.row
        line = lines.lineForRow(row)
        rowFolds = folds.get(row)
      }
      column = foldEnd.column
      continue
    }
    if (column === line.length) break
    if (character === '\t') {
      tabColumns.push(unexpanded)
      const toTabStop = tabLength - (expanded % tabLength)
      expanded += toTabStop
      width += toTabStop * spaceWidth
    } else {
      expanded++
      width += characterWidth
    }
    unexpanded++
    column++
  }
  lengths.push(expanded)
  tabCounts.push(tabColumns.length)
  return { bufferRows: row - startRow + 1, lengths, tabCounts, hunks: hunks ?? NO_HUNKS }
}

const NO_TABS: readonly number[] = Object.freeze([0])

/**
 * The layout of a row that neither wraps nor folds: one screen row, as long as the line with
 * its hard tabs widened to their tab stops. The same as the general loop gives it, without
 * looking at each character.
 */
const layoutPlainRow = (line: string, tabLength: number): RegionLayout => {
  let expanded = 0
  let tabs = 0
  let from = 0
  for (;;) {
    const tab = line.indexOf('\t', from)
    if (tab < 0) break
    expanded += tab - from
    expanded += tabLength - (expanded % tabLength)
    tabs++
    from = tab + 1
  }
  expanded += line.length - from
  return {
    bufferRows: 1,
    lengths: [expanded],
    tabCounts: tabs === 0 ? NO_TABS : [tabs],
    hunks: NO_HUNKS,
  }
}

/**
 * Adds a soft wrap at screen (`screenRow`, `column`) for buffer position `at`: hunks already
 * placed at or after that column move to the next screen row, after the indentation.
 */
const insertSoftWrap = (
  hunks: Hunk[],
  at: Point,
  screenRow: number,
  column: number,
  indent: number,
): void => {
  let first = hunks.length
  while (first > 0) {
    const start = hunks[first - 1]!.newStart
    if (start.row !== screenRow || start.column < column) break
    first--
  }
  for (let i = first; i < hunks.length; i++) {
    const hunk = hunks[i]!
    const move = (p: Point) => new Point(screenRow + 1, indent + p.column - column)
    hunks[i] = { ...hunk, newStart: move(hunk.newStart), newEnd: move(hunk.newEnd) }
  }
  hunks.splice(first, 0, {
    oldStart: at,
    oldEnd: at,
    newStart: new Point(screenRow, column),
    newEnd: new Point(screenRow + 1, indent),
  })
}

/** Index of the last hunk whose `side` start is at or before `position`, or -1. */
const lastHunkFrom = (hunks: readonly Hunk[], position: Point, side: 'oldStart' | 'newStart') => {
  let low = 0
  let high = hunks.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (hunks[middle]![side].isLessThanOrEqual(position)) low = middle + 1
    else high = middle
  }
  return low - 1
}

/** Index of the last hunk whose old (buffer) start is at or before `position`, or -1. */
export const hunkForOldPosition = (hunks: readonly Hunk[], position: Point): number =>
  lastHunkFrom(hunks, position, 'oldStart')

/** Index of the last hunk whose new (screen) start is at or before `position`, or -1. */
export const hunkForNewPosition = (hunks: readonly Hunk[], position: Point): number =>
  lastHunkFrom(hunks, position, 'newStart')
