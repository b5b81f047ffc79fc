/**
 * Position translation inside one region, in region-local coordinates: through the region's
 * hunks (folds and soft wraps), and across hard tabs on one screen row. These follow Atom's
 * display layer step for step, including its choices at fold and wrap edges.
 */
import { Point } from '@tandem/text'
import {
  type Hunk,
  hunkForNewPosition,
  hunkForOldPosition,
  isSoftWrap,
  type LineSource,
  type RegionLayout,
} from './region.js'

/** Which way a position that falls inside something atomic moves. */
export type ClipDirection = 'backward' | 'forward' | 'closest'

/**
 * The unexpanded screen position of a local buffer position. Inside a fold it goes to the
 * placeholder's start (`backward`), its end (`forward`) or the nearer of the two (`closest`,
 * ties to the start). A soft-wrap point maps to the start of the wrapped row's text.
 */
export const bufferToScreen = (
  hunks: readonly Hunk[],
  position: Point,
  direction: ClipDirection,
): Point => {
  const index = hunkForOldPosition(hunks, position)
  if (index < 0) return position
  const hunk = hunks[index]!
  if (position.isLessThan(hunk.oldEnd)) {
    if (hunk.oldStart.isEqual(position)) return hunk.newStart
    if (direction === 'backward') return hunk.newStart
    if (direction === 'forward') return hunk.newEnd
    const fromStart = position.traversalFrom(hunk.oldStart)
    const toEnd = hunk.oldEnd.traversalFrom(position)
    return fromStart.compare(toEnd) <= 0 ? hunk.newStart : hunk.newEnd
  }
  return hunk.newEnd.traverse(position.traversalFrom(hunk.oldEnd))
}

/**
 * The local buffer position of an unexpanded screen position. On a fold placeholder it is
 * the fold's start. In a soft wrap (the end of a wrapped row or the next row's indentation)
 * it is the wrap point, except that `backward` (unless `skipSoftWrapIndentation`) and
 * `closest` at the very end of the wrapped row go to the last character before the wrap.
 * `null` as direction means "no clipping preference" (only used to find row starts).
 */
export const screenToBuffer = (
  hunks: readonly Hunk[],
  position: Point,
  direction: ClipDirection | null,
  skipSoftWrapIndentation: boolean,
): Point => {
  const index = hunkForNewPosition(hunks, position)
  if (index < 0) return position
  const hunk = hunks[index]!
  if (position.isLessThan(hunk.newEnd)) {
    if (
      isSoftWrap(hunk) &&
      ((direction === 'backward' && !skipSoftWrapIndentation) ||
        (direction === 'closest' && hunk.newStart.isEqual(position)))
    ) {
      const before = new Point(hunk.newStart.row, hunk.newStart.column - 1)
      return screenToBuffer(hunks, before, direction, skipSoftWrapIndentation)
    }
    return hunk.oldStart
  }
  return hunk.oldEnd.traverse(position.traversalFrom(hunk.newEnd))
}

/** A walk along one screen row: the next hunk, the buffer position and both columns. */
interface RowWalk {
  hunkIndex: number
  row: number
  column: number
  line: string
  unexpanded: number
  expanded: number
}

/** Starts a walk at the beginning of local screen row `screenRow`. */
const startRowWalk = (
  hunks: readonly Hunk[],
  lines: LineSource,
  regionRow: number,
  screenRow: number,
): RowWalk => {
  const rowStart = new Point(screenRow, 0)
  const { row, column } = screenToBuffer(hunks, rowStart, null, false)
  const hunkIndex = Math.max(0, hunkForNewPosition(hunks, rowStart))
  const line = lines.lineForRow(regionRow + row)
  return { hunkIndex, row, column, line, unexpanded: 0, expanded: 0 }
}

/**
 * Steps over the hunk at the walk's buffer position, if one starts there on screen at or
 * before `limit`: past a fold's placeholder, or to the end of a soft wrap's indentation
 * (at most `maxWrapColumn`). Returns whether it stepped.
 */
const stepOverHunk = (
  walk: RowWalk,
  hunks: readonly Hunk[],
  lines: LineSource,
  regionRow: number,
  limit: Point,
  maxWrapColumn: number,
): boolean => {
  const hunk = hunks[walk.hunkIndex]
  if (
    hunk === undefined ||
    !hunk.newStart.isLessThanOrEqual(limit) ||
    hunk.oldStart.row !== walk.row ||
    hunk.oldStart.column !== walk.column
  ) {
    return false
  }
  if (isSoftWrap(hunk)) {
    walk.unexpanded = Math.min(maxWrapColumn, hunk.newEnd.column)
    walk.expanded = walk.unexpanded
  } else {
    walk.row = hunk.oldEnd.row
    walk.column = hunk.oldEnd.column
    walk.line = lines.lineForRow(regionRow + walk.row)
    walk.unexpanded++
    walk.expanded++
  }
  walk.hunkIndex++
  return true
}

/**
 * The expanded column of unexpanded local screen position `target` on a row holding
 * `tabCount` hard tabs: each tab widens to the next multiple of `tabLength`.
 */
export const expandTabs = (
  layout: RegionLayout,
  lines: LineSource,
  regionRow: number,
  target: Point,
  tabLength: number,
): number => {
  const hunks = layout.hunks
  let tabCount = layout.tabCounts[target.row]!
  const walk = startRowWalk(hunks, lines, regionRow, target.row)
  while (tabCount > 0 && walk.unexpanded !== target.column) {
    if (stepOverHunk(walk, hunks, lines, regionRow, target, Number.POSITIVE_INFINITY)) continue
    if (walk.line[walk.column] === '\t') {
      walk.expanded += tabLength - (walk.expanded % tabLength)
      tabCount--
    } else {
      walk.expanded++
    }
    walk.unexpanded++
    walk.column++
  }
  return walk.expanded + target.column - walk.unexpanded
}

/**
 * The unexpanded column of expanded local screen position `target`. A column inside a
 * tab's width goes to the tab's start (`backward`), after it (`forward`), or the nearer
 * side, past the middle counting as after (`closest`).
 */
export const collapseTabs = (
  layout: RegionLayout,
  lines: LineSource,
  regionRow: number,
  target: Point,
  tabLength: number,
  direction: ClipDirection,
): number => {
  const hunks = layout.hunks
  let tabCount = layout.tabCounts[target.row]!
  const rowEnd = new Point(target.row, layout.lengths[target.row]!)
  const walk = startRowWalk(hunks, lines, regionRow, target.row)
  while (tabCount > 0 && walk.expanded !== target.column) {
    if (stepOverHunk(walk, hunks, lines, regionRow, rowEnd, target.column)) continue
    if (walk.line[walk.column] === '\t') {
      const { expanded, unexpanded } = walk
      const nextTabStop = expanded + tabLength - (expanded % tabLength)
      if (nextTabStop > target.column) {
        if (direction === 'backward') return unexpanded
        if (direction === 'forward') return unexpanded + 1
        return target.column > Math.ceil((nextTabStop + expanded) / 2) ? unexpanded + 1 : unexpanded
      }
      walk.expanded = nextTabStop
      tabCount--
    } else {
      walk.expanded++
    }
    walk.unexpanded++
    walk.column++
  }
  return walk.unexpanded + target.column - walk.expanded
}
