/**
 * The work list of a search: the stretches of the buffer still to be scanned, kept as markers
 * so that they move with local and remote edits like the matches do. A search starts with one
 * stretch per scope (the buffer, or each selection of an in-selection search); each edit adds
 * the rows it touched. `step` scans one piece of the first stretch: a few rows up to a
 * character budget, replacing the match markers that start in it with what the scan finds.
 *
 * A match can cross at most `rowSpan` line breaks (see `CompiledQuery`), so a piece reads that
 * many rows past its end, and the rows an edit dirties start that many rows above it. When a
 * match dropped runs past the end of a stretch, the scan goes on from there: the matches after
 * it may have been hidden by it. A match found that runs past the end needs nothing more: the
 * old matches under it go with the piece, and the old ones after it are what a scan resuming
 * at its end finds.
 */
import type { BufferChange, Marker, MarkerLayer, TextBuffer } from '@tandem/buffer'
import { Point, Range } from '@tandem/text'
import type { CompiledQuery } from './search-query.js'

/** Characters a piece scans (rounded out to whole rows): well under a millisecond of work. */
export const PIECE_CHARACTERS = 16 * 1024

/**
 * Matches a piece marks before it ends at the next row: making markers costs far more than
 * finding the matches, so a piece dense with matches is cut short.
 */
export const PIECE_MATCHES = 256

/** Where a piece of scanning may look: the whole buffer or one selection. */
interface Scope {
  start: number
  end: number
}

/** The match markers' options: an edit inside a match invalidates it until it is re-checked. */
const MATCH_OPTIONS = { invalidate: 'inside' as const }

/** Scans a buffer for a query piece by piece; see the module comment. */
export class MatchScan {
  /** The stretches still to scan. */
  private readonly pending: MarkerLayer
  /** The selections an in-selection search is confined to; null to search the whole buffer. */
  private readonly scopes: MarkerLayer | null
  /** The scope of each pending stretch of an in-selection search. */
  private readonly scopeOfStretch = new Map<Marker, Marker>()
  /** Whether a piece found more matches than `maxMatches` allows markers for. */
  capped = false

  constructor(
    private readonly buffer: TextBuffer,
    /** The layer of match markers, one per match. */
    private readonly matches: MarkerLayer,
    private readonly query: CompiledQuery,
    scopeRanges: readonly Range[] | null,
    private readonly maxMatches: number,
  ) {
    this.pending = buffer.addMarkerLayer({ role: 'search-pending' })
    if (scopeRanges === null) {
      this.scopes = null
      this.pending.markRange(buffer.getRange(), { invalidate: 'never', exclusive: false })
    } else {
      this.scopes = buffer.addMarkerLayer({ role: 'search-scopes' })
      for (const range of scopeRanges) {
        const scope = this.scopes.markRange(range, { invalidate: 'never', exclusive: true })
        const stretch = this.pending.markRange(range, { invalidate: 'never', exclusive: false })
        this.scopeOfStretch.set(stretch, scope)
      }
    }
  }

  /** Whether some stretch is still to be scanned. */
  hasPending(): boolean {
    return this.pending.getMarkerCount() > 0
  }

  /** Drops the stretches still to scan: the search stops where it is. */
  stop(): void {
    this.pending.clear()
    this.scopeOfStretch.clear()
  }

  /**
   * Adds the rows `changes` touched (in the coordinates after them) to the work list, from
   * `rowSpan` rows above each change, since a match starting there may now reach it. Changes
   * less than a piece apart share a stretch: scanning the rows between them costs less than
   * a stretch each (a keystroke with 10,000 cursors makes 10,000 changes).
   */
  invalidate(changes: readonly BufferChange[]): void {
    const span = this.query.rowSpan
    const buffer = this.buffer
    let startRow = -1
    let endRow = -1
    const flush = () => {
      if (startRow >= 0) this.addStretch(startRow, endRow)
    }
    const near = (row: number) =>
      row <= endRow + 1 ||
      buffer.characterIndexForPosition([row, 0]) -
        buffer.characterIndexForPosition([endRow + 1, 0]) <
        PIECE_CHARACTERS
    for (const change of changes) {
      const from = Math.max(0, change.newRange.start.row - span)
      const to = change.newRange.end.row
      if (startRow >= 0 && near(from)) {
        endRow = Math.max(endRow, to)
      } else {
        flush()
        startRow = from
        endRow = to
      }
    }
    flush()
  }

  /** Scans one piece of the first stretch. Returns whether any match marker changed. */
  step(): boolean {
    const stretch = this.firstStretch()
    if (stretch === undefined) return false
    const buffer = this.buffer
    const scope = this.scopeFor(stretch)
    const stretchEnd = Math.min(stretch.end, scope.end)
    const from = Math.min(this.afterMatchCrossing(Math.max(stretch.start, scope.start)), scope.end)
    const piece = this.findInPiece(from, stretchEnd, scope)
    const { found, pieceEnd } = piece

    const lastFound = found[found.length - 1]
    const newCarry = lastFound === undefined ? -1 : buffer.characterIndexForPosition(lastFound.end)
    // Old matches under the last one found give way too: a scan from the left never finds
    // a match inside another.
    const next = Math.max(pieceEnd, newCarry)
    const { changed, oldCarry } = this.replaceMatches(from, next, found)
    if (stretch.isDestroyed()) return changed // the cap was reached: the search stopped

    // Go on past the stretch while a dropped match runs past where the scan stops: the matches
    // after it may have been hidden by it. Past a match found, nothing changed: the old matches
    // under it are gone, and those after it start where a scan resuming at its end finds them.
    const stretchEndRow = buffer.positionForCharacterIndex(stretchEnd).row
    const more = piece.endRow < stretchEndRow || oldCarry > next
    if (more && next < scope.end && next < buffer.getLength()) {
      stretch.setRange(this.rangeOf(next, Math.max(stretchEnd, oldCarry, next)))
    } else {
      this.scopeOfStretch.delete(stretch)
      stretch.destroy()
    }
    return changed
  }

  /**
   * The matches that start in the piece from `from`: whole rows up to `PIECE_CHARACTERS`
   * (at least one row, at most to `stretchEnd`'s row), cut short before the row of the
   * `PIECE_MATCHES`th match. The scan reads `rowSpan` rows further, for matches that start in
   * the piece and end past it.
   */
  private findInPiece(
    from: number,
    stretchEnd: number,
    scope: Scope,
  ): { found: Range[]; pieceEnd: number; endRow: number } {
    const buffer = this.buffer
    const lastRow = buffer.getLastRow()
    const startRow = buffer.positionForCharacterIndex(from).row
    const budgetEnd = Math.min(from + PIECE_CHARACTERS, Math.max(stretchEnd, from))
    let endRow = Math.max(startRow, buffer.positionForCharacterIndex(budgetEnd).row)
    // A match belongs to the piece when it starts before the next row (or the scope's end).
    let pieceEnd = Math.min(
      endRow < lastRow ? buffer.characterIndexForPosition([endRow + 1, 0]) : buffer.getLength(),
      scope.end,
    )
    const windowRow = Math.min(endRow + this.query.rowSpan, lastRow)
    const windowEnd = Math.min(
      buffer.characterIndexForPosition([windowRow, buffer.lineLengthForRow(windowRow)!]),
      scope.end,
    )
    const found: Range[] = []
    if (from >= windowEnd) return { found, pieceEnd, endRow }
    const pieceEndPoint = buffer.positionForCharacterIndex(pieceEnd)
    for (const range of buffer.findAllInRangeSync(
      this.query.regex,
      this.rangeOf(from, windowEnd),
    )) {
      if (range.start.compare(pieceEndPoint) >= 0) break
      if (!range.isEmpty()) found.push(range)
    }
    const cut = found[PIECE_MATCHES]
    if (cut !== undefined && cut.start.row > startRow) {
      pieceEnd = buffer.characterIndexForPosition([cut.start.row, 0])
      endRow = cut.start.row - 1
      let keep = PIECE_MATCHES
      while (keep > 0 && found[keep - 1]!.start.row >= cut.start.row) keep--
      found.length = keep
    }
    return { found, pieceEnd, endRow }
  }

  /**
   * Puts `found` (sorted) in place of the match markers starting in `from`..`next`: a marker
   * found again stays, the others are destroyed, and so are empty markers there (matches an
   * edit collapsed). Returns whether anything changed and how far the destroyed ones reached.
   */
  private replaceMatches(
    from: number,
    next: number,
    found: readonly Range[],
  ): { changed: boolean; oldCarry: number } {
    let changed = false
    let oldCarry = -1
    let kept: Set<number> | null = null
    for (const marker of this.matches.markersIntersectingRange(this.rangeOf(from, next))) {
      const { start, end } = marker
      const inside = start >= from && start < next
      if (!inside && start !== end) continue
      if (inside && marker.isValid()) {
        const index = indexOfRange(found, marker.getRange())
        if (index >= 0 && kept?.has(index) !== true) {
          kept ??= new Set()
          kept.add(index)
          continue
        }
      }
      oldCarry = Math.max(oldCarry, end)
      marker.destroy()
      changed = true
    }
    for (let i = 0; i < found.length; i++) {
      if (kept?.has(i) === true) continue
      if (this.matches.getMarkerCount() >= this.maxMatches) {
        this.capped = true
        this.stop()
        break
      }
      this.matches.markRange(found[i]!, MATCH_OPTIONS)
      changed = true
    }
    return { changed, oldCarry }
  }

  /** Releases the work list's layers; the matches stay. */
  destroy(): void {
    this.pending.destroy()
    this.scopes?.destroy()
    this.scopeOfStretch.clear()
  }

  private firstStretch(): Marker | undefined {
    let first: Marker | undefined
    for (const marker of this.pending.getMarkers()) {
      if (first === undefined || marker.start < first.start) first = marker
    }
    return first
  }

  private scopeFor(stretch: Marker): Scope {
    const scope = this.scopeOfStretch.get(stretch)
    if (scope === undefined) return { start: 0, end: this.buffer.getLength() }
    return { start: scope.start, end: scope.end }
  }

  /** `offset`, or the end of the match that starts before it and runs past it. */
  private afterMatchCrossing(offset: number): number {
    let result = offset
    const at = this.rangeOf(offset, offset)
    for (const marker of this.matches.markersIntersectingRange(at)) {
      if (marker.start < offset && marker.end > result && marker.isValid()) result = marker.end
    }
    return result
  }

  /** Adds rows `startRow`..`endRow` to the work list, clipped to each scope. */
  private addStretch(startRow: number, endRow: number): void {
    const buffer = this.buffer
    const lastRow = buffer.getLastRow()
    const clippedEnd = Math.min(endRow, lastRow)
    const range = new Range(
      new Point(Math.min(startRow, lastRow), 0),
      new Point(clippedEnd, buffer.lineLengthForRow(clippedEnd)!),
    )
    if (this.scopes === null) {
      this.pending.markRange(range, { invalidate: 'never', exclusive: false })
      return
    }
    for (const scope of this.scopes.markersIntersectingRange(range)) {
      const scopeRange = scope.getRange()
      const part = new Range(
        Point.max(range.start, scopeRange.start),
        Point.min(range.end, scopeRange.end),
      )
      const stretch = this.pending.markRange(part, { invalidate: 'never', exclusive: false })
      this.scopeOfStretch.set(stretch, scope)
    }
  }

  private rangeOf(start: number, end: number): Range {
    const buffer = this.buffer
    const startPoint = buffer.positionForCharacterIndex(start)
    return new Range(startPoint, end === start ? startPoint : buffer.positionForCharacterIndex(end))
  }
}

/** The index of `range` in `ranges` (sorted, not overlapping), or -1. */
const indexOfRange = (ranges: readonly Range[], range: Range): number => {
  let low = 0
  let high = ranges.length - 1
  while (low <= high) {
    const mid = (low + high) >> 1
    const order = ranges[mid]!.start.compare(range.start)
    if (order < 0) low = mid + 1
    else if (order > 0) high = mid - 1
    else return ranges[mid]!.end.isEqual(range.end) ? mid : -1
  }
  return -1
}
