/**
 * Folds found by a tree-sitter query over a `SyntaxTree`, resolved as Pulsar's tree-sitter
 * language modes resolve them (see `fold-queries.ts` for the captures and adjustments):
 *
 * - A fold starts at the end of the row its node starts on and must end on a later row.
 * - Captures are ordered by where their node starts; of several captures starting at the
 *   same place, the first the query reports is the only one considered.
 * - A row has at most one fold: the first capture starting on it that resolves to a fold.
 */

import { Point, Range } from '@tandem/text'
import { type Language, type Node, Query, type QueryCapture } from 'web-tree-sitter'
import { foldsAtNestingLevel } from './fold-ranges.js'
import type { SyntaxTree } from './syntax-tree.js'

/** A capture placed in buffer order: where its node starts, and which end of a fold it is. */
interface Boundary {
  readonly capture: QueryCapture
  /** The character offset where the captured node starts. */
  readonly index: number
  /** The buffer row where the captured node starts. */
  readonly row: number
  /** Ends sort before starts at the same offset. */
  readonly isEnd: boolean
}

/** Adjustments of a fold's end, by their `#set!` names. */
const ADJUSTMENTS = new Set(['endAt', 'offsetEnd', 'adjustEndColumn', 'adjustToEndOfPreviousRow'])

/** Rows looked through at once when searching upwards for a fold around a row. */
const FIRST_SEARCH_ROWS = 32

const queries = new WeakMap<object, Map<string, Query>>()

/** One compiled query per language and source (compiling is not cheap; queries are shared). */
const queryFor = (language: Language, source: string): Query => {
  let bySource = queries.get(language)
  if (bySource === undefined) {
    bySource = new Map()
    queries.set(language, bySource)
  }
  let query = bySource.get(source)
  if (query === undefined) {
    query = new Query(language, source)
    bySource.set(source, query)
  }
  return query
}

/**
 * The folds of a syntax tree's text, from a fold query (see `fold-queries.ts`), answering
 * what a `LanguageMode` answers about folds. Reading folds parses the text again when it
 * changed. Ranges start at the end of their first row; every position is clipped to the text.
 *
 * @example new SyntaxFolds(syntax, JAVASCRIPT_FOLDS).getFoldableRanges()
 */
export class SyntaxFolds {
  private readonly query: Query

  /** Folds of `syntax`'s text, by the query `source` (in the syntax tree's language). */
  constructor(
    private readonly syntax: SyntaxTree,
    source: string,
  ) {
    this.query = queryFor(syntax.language as Language, source)
  }

  /**
   * The fold starting on `point`'s row when `point` is at the end of its row, else the fold
   * of the nearest row above that contains `point`; null when there is none.
   *
   * @example folds.getFoldableRangeContainingPoint(new Point(4, Infinity))
   */
  getFoldableRangeContainingPoint(point: Point): Range | null {
    const { buffer } = this.syntax
    const clipped = buffer.clipPosition(point)
    if (clipped.column >= (buffer.lineLengthForRow(clipped.row) ?? 0)) {
      const fold = this.foldRangeForRow(clipped.row)
      if (fold !== null) return fold
    }
    let endRow = clipped.row
    for (let size = FIRST_SEARCH_ROWS; endRow > 0; size *= 2) {
      const startRow = Math.max(0, endRow - size)
      const folds = this.foldsByRow(startRow, endRow)
      for (let row = endRow - 1; row >= startRow; row--) {
        const fold = folds.get(row)
        if (fold?.containsPoint(clipped)) return fold
      }
      endRow = startRow
    }
    return null
  }

  /**
   * Every fold, in buffer order, one at most per row.
   *
   * @example folds.getFoldableRanges().map((range) => range.start.row)
   */
  getFoldableRanges(): Range[] {
    return [...this.foldsByRow(0, this.syntax.buffer.getLineCount()).values()]
  }

  /**
   * The folds nested in exactly `level` other folds (0: the outermost ones).
   *
   * @example folds.getFoldableRangesAtIndentLevel(0)
   */
  getFoldableRangesAtIndentLevel(level: number): Range[] {
    return foldsAtNestingLevel(this.getFoldableRanges(), level)
  }

  /**
   * Whether a fold starts on `row`.
   *
   * @example folds.isFoldableAtRow(0)
   */
  isFoldableAtRow(row: number): boolean {
    return this.foldRangeForRow(row) !== null
  }

  /** The fold starting on `row`, or null. */
  foldRangeForRow(row: number): Range | null {
    return this.foldsByRow(row, row + 1).get(row) ?? null
  }

  /** The fold of each row from `startRow` to before `endRow` that has one, in row order. */
  private foldsByRow(startRow: number, endRow: number): Map<number, Range> {
    const folds = new Map<number, Range>()
    if (startRow >= endRow) return folds
    const lineCount = this.syntax.buffer.getLineCount()
    const boundaries = this.boundaries(startRow, endRow)
    // A divided fold looks for its end in the rest of the text: read that once per call.
    let rest: Boundary[] | null = endRow >= lineCount ? boundaries : null
    for (const boundary of boundaries) {
      if (folds.has(boundary.row)) continue
      const { name } = boundary.capture
      let fold: Range | null = null
      if (name === 'fold') {
        fold = this.resolveSimpleFold(boundary)
      } else if (name === 'fold.start') {
        rest ??= this.boundaries(startRow, lineCount)
        fold = this.resolveDividedFold(boundary, rest)
      }
      if (fold !== null) folds.set(boundary.row, fold)
    }
    return folds
  }

  /**
   * The fold captures of nodes starting on rows `startRow` to before `endRow`, in buffer
   * order, the first capture reported at each place only.
   */
  private boundaries(startRow: number, endRow: number): Boundary[] {
    const { buffer } = this.syntax
    const root = this.syntax.getTree().rootNode as Node
    const captures = this.query.captures(root, {
      startPosition: { row: startRow, column: 0 },
      endPosition: { row: endRow, column: 0 },
    })
    const seen = new Set<string>()
    const boundaries: Boundary[] = []
    for (const capture of captures) {
      const { name, node } = capture
      if (name !== 'fold' && name !== 'fold.start' && name !== 'fold.end') continue
      const index = node.startIndex
      const row = buffer.positionForCharacterIndex(index).row
      if (row < startRow || row >= endRow) continue
      const isEnd = name === 'fold.end'
      const key = `${index}${isEnd ? 'e' : 's'}`
      if (seen.has(key)) continue
      seen.add(key)
      boundaries.push({ capture, index, row, isEnd })
    }
    return boundaries.sort((a, b) => a.index - b.index || Number(b.isEnd) - Number(a.isEnd))
  }

  /** A `@fold`: from the end of its first row to where its adjustments put the end. */
  private resolveSimpleFold({ capture, row }: Boundary): Range | null {
    const { node } = capture
    if (node.type === 'ERROR') return null
    const start = this.endOfRow(row)
    const settings = { 'fold.endAt': 'lastChild.startPosition', ...capture.setProperties }
    let end: Point | null = this.position(node.endIndex)
    for (const [key, value] of Object.entries(settings)) {
      const adjustment = adjustmentName(key)
      if (adjustment === null) continue
      // An adjustment that cannot apply gives up on the adjustments: the fold then ends
      // where its node ends.
      if (end === null) return foldRange(start, this.position(node.endIndex))
      end = this.adjust(adjustment, end, node, value)
    }
    return foldRange(start, end)
  }

  /**
   * A `@fold.start`: up to the next `@fold.end` that no later `@fold.start` claims, looked for
   * in `rest` (the boundaries from its row or before to the end of the text).
   */
  private resolveDividedFold(boundary: Boundary, rest: readonly Boundary[]): Range | null {
    let depth = 0
    for (let i = firstAtOrAfter(rest, boundary.index); i < rest.length; i++) {
      const other = rest[i]!
      // Its own node is not its end.
      if (other.capture.node.id === boundary.capture.node.id) continue
      if (other.isEnd) {
        if (depth === 0) return foldRange(this.endOfRow(boundary.row), this.dividedEnd(other))
        depth--
      } else if (other.capture.name === 'fold.start') {
        depth++
      }
    }
    return null
  }

  /**
   * Where a `@fold.end` ends its fold: at the start of its node, adjusted; a node that starts
   * its row (only blanks before it), unadjusted, ends the fold at the end of the row above.
   */
  private dividedEnd({ capture }: Boundary): Point {
    const { node } = capture
    const start = this.position(node.startIndex)
    const settings = { 'fold.endAt': 'startPosition', ...capture.setProperties }
    let end: Point | null = start
    for (const [key, value] of Object.entries(settings)) {
      const adjustment = adjustmentName(key)
      if (adjustment !== null && end !== null) end = this.adjust(adjustment, end, node, value)
    }
    if (end === null) return start
    if (end.isEqual(start)) {
      const before = this.syntax.buffer.lineForRow(start.row)?.slice(0, start.column) ?? ''
      if (!/\S/.test(before)) return this.endOfRow(start.row - 1)
    }
    return end
  }

  /** One adjustment of a fold's end; null when it cannot apply. */
  private adjust(adjustment: string, end: Point, node: Node, value: string | null): Point | null {
    const { buffer } = this.syntax
    switch (adjustment) {
      case 'endAt': {
        const index = nodeIndexAt(node, value ?? '')
        return index === null ? null : this.position(index)
      }
      case 'offsetEnd': {
        const offset = Number(value)
        if (Number.isNaN(offset)) return end
        return buffer.positionForCharacterIndex(buffer.characterIndexForPosition(end) + offset)
      }
      case 'adjustEndColumn': {
        const column = Number(value)
        if (Number.isNaN(column)) return end
        return buffer.clipPosition(new Point(end.row, column))
      }
      case 'adjustToEndOfPreviousRow':
        return this.endOfRow(end.row - 1)
      default:
        return end
    }
  }

  private position(index: number): Point {
    return this.syntax.buffer.positionForCharacterIndex(index)
  }

  /** The end of buffer row `row` (a row above the first is the start of the text). */
  private endOfRow(row: number): Point {
    return this.syntax.buffer.clipPosition(new Point(row, Number.POSITIVE_INFINITY))
  }
}

/** The position in `boundaries` (sorted by offset) of the first one at `index` or after. */
const firstAtOrAfter = (boundaries: readonly Boundary[], index: number): number => {
  let low = 0
  let high = boundaries.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (boundaries[middle]!.index < index) low = middle + 1
    else high = middle
  }
  return low
}

/** A fold from `start` to `end`; null unless it ends on a later row than it starts. */
const foldRange = (start: Point, end: Point | null): Range | null =>
  end !== null && end.row > start.row ? new Range(start, end) : null

/** `fold.endAt` → `endAt`; null for settings that are not adjustments. */
const adjustmentName = (key: string): string | null => {
  const name = key.startsWith('fold.') ? key.slice('fold.'.length) : key
  return ADJUSTMENTS.has(name) ? name : null
}

/**
 * The offset named by a path such as `parent.lastChild.startPosition`: node fields walked from
 * `node`, then `startPosition` or `endPosition`. Null when a field on the way is missing.
 */
const nodeIndexAt = (node: Node, path: string): number | null => {
  const parts = path.split('.')
  const end = parts.pop()
  let current: Node | null = node
  for (const part of parts) {
    current = current === null ? null : step(current, part)
    if (current === null) return null
  }
  if (end === 'startPosition' || end === 'startIndex') return current.startIndex
  if (end === 'endPosition' || end === 'endIndex') return current.endIndex
  return null
}

/** One field of a node path. */
const step = (node: Node, field: string): Node | null => {
  switch (field) {
    case 'parent':
      return node.parent
    case 'firstChild':
      return node.firstChild
    case 'lastChild':
      return node.lastChild
    case 'firstNamedChild':
      return node.firstNamedChild
    case 'lastNamedChild':
      return node.lastNamedChild
    case 'nextSibling':
      return node.nextSibling
    case 'previousSibling':
      return node.previousSibling
    case 'nextNamedSibling':
      return node.nextNamedSibling
    case 'previousNamedSibling':
      return node.previousNamedSibling
    default:
      return null
  }
}
