/**
 * Fold ranges seen as a nesting: which folds lie inside how many others. Tree-sitter
 * languages fold "at an indent level" by this nesting rather than by indentation, as Pulsar's
 * do, since a language's nested folds need not be indented deeper.
 */

import type { Point, Range } from '@tandem/text'

/** One end of a fold, to walk the folds' ends in buffer order. */
interface FoldEnd {
  readonly point: Point
  readonly fold: Range
  readonly isEnd: boolean
}

/**
 * Orders fold ends by position; at one position a fold's end comes before another's start,
 * and of two starts (or two ends) the fold containing the other starts first (ends last).
 */
const compareFoldEnds = (a: FoldEnd, b: FoldEnd): number => {
  const byPoint = a.point.compare(b.point)
  if (byPoint !== 0) return byPoint
  if (a.isEnd !== b.isEnd) return a.isEnd ? -1 : 1
  if (a.fold.containsRange(b.fold)) return a.isEnd ? 1 : -1
  if (b.fold.containsRange(a.fold)) return b.isEnd ? -1 : 1
  return 0
}

/**
 * The folds of `folds` that lie inside exactly `level` others (0: the outermost), in buffer
 * order. Folds are expected to nest or be apart, as a language's folds are.
 *
 * @example foldsAtNestingLevel([outer, inner], 1) // => [inner]
 */
export const foldsAtNestingLevel = (folds: readonly Range[], level: number): Range[] => {
  const ends: FoldEnd[] = []
  for (const fold of folds) {
    ends.push({ point: fold.start, fold, isEnd: false }, { point: fold.end, fold, isEnd: true })
  }
  ends.sort(compareFoldEnds)
  const found: Range[] = []
  let depth = 0
  for (const { fold, isEnd } of ends) {
    if (isEnd) {
      depth--
    } else {
      if (depth === level) found.push(fold)
      depth++
    }
  }
  return found
}
