/**
 * Folds as the layout sees them: the fold markers of some rows, with overlapping and nested
 * ones merged, as Atom merges them. Folds that only touch (one ends where the next starts)
 * stay separate and show as two placeholders.
 */
import type { Marker, MarkerLayer } from '@tandem/buffer'
import type { Point } from '@tandem/text'
import type { FoldStarts } from './region.js'

/** Merged folds of a row span, and the row after the last one they reach. */
export interface CollectedFolds {
  readonly starts: FoldStarts
  /** At least the requested end row; more when a fold runs past it. */
  readonly endRow: number
}

/**
 * The merged folds of buffer rows [`startRow`, `endRow`), extended past `endRow` for as long
 * as folds run on. Empty folds are left out (they hide nothing).
 *
 * @example collectFolds(layer, 0, 10).starts.get(2)?.get(4) // => end of the fold at (2, 4)
 */
export function collectFolds(layer: MarkerLayer, startRow: number, endRow: number): CollectedFolds {
  if (layer.getMarkerCount() === 0) return { starts: NO_FOLDS, endRow }
  let markers = validFolds(layer, startRow, endRow)
  // A fold reaching past the span pulls in the rows up to its end, and the folds there.
  for (;;) {
    let reach = endRow
    for (const marker of markers) reach = Math.max(reach, marker.getEndPosition().row + 1)
    if (reach === endRow) break
    endRow = reach
    markers = validFolds(layer, startRow, endRow)
  }
  const starts = new Map<number, Map<number, Point>>()
  for (let i = 0; i < markers.length; i++) {
    const start = markers[i]!.getStartPosition()
    let end = markers[i]!.getEndPosition()
    while (i + 1 < markers.length) {
      const next = markers[i + 1]!
      if (!next.getStartPosition().isLessThan(end)) break
      const nextEnd = next.getEndPosition()
      if (end.isLessThan(nextEnd)) end = nextEnd
      i++
    }
    if (!start.isLessThan(end)) continue
    let row = starts.get(start.row)
    if (row === undefined) {
      row = new Map()
      starts.set(start.row, row)
    }
    row.set(start.column, end)
  }
  return { starts, endRow }
}

/** The fold starts of rows without folds (shared: never changed). */
const NO_FOLDS: FoldStarts = new Map()

const validFolds = (layer: MarkerLayer, startRow: number, endRow: number): Marker[] =>
  layer
    .findMarkers({ intersectsRowRange: [startRow, endRow - 1] })
    .filter((marker) => marker.isValid())
