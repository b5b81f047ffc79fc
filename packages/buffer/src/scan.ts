import { type Point, type PointLike, Range, type RangeLike } from '@tandem/text'
import { searchText, type TextMatch } from './search.js'

/** What a scan reads of the buffer, and the edits its replacements make. */
export interface ScannedText {
  /** The text in `range`. */
  getTextInRange(range: RangeLike): string
  /** Offset of `position`. */
  characterIndexForPosition(position: PointLike): number
  /** Position of `offset`. */
  positionForCharacterIndex(offset: number): Point
  /** Length of `row` without its ending. */
  lineLengthForRow(row: number): number | undefined
  /** Runs `fn` as one transaction. */
  transact<T>(fn: () => T): T
  /** Replaces the text in `range`. */
  setTextInRange(range: RangeLike, text: string): Range
}

/** One match found by a scan. */
export interface ScanResult {
  /** The RegExp match (indices relative to the scanned text). */
  readonly match: RegExpExecArray
  /** The matched text, `match[0]`. */
  readonly matchText: string
  /** Where the match is in the buffer. */
  readonly range: Range
  /** Ends the scan after this callback. */
  stop(): void
  /** Replaces the match once the scan ends (all replacements form one transaction). */
  replace(text: string): void
}

/** Called for each match of a scan. */
export type ScanCallback = (result: ScanResult) => void

/**
 * Runs `regex` over the text of `range` with Atom's search semantics (see `search.ts`) and
 * calls `callback` per match (last first when `backwards`). Replacements are applied after
 * the scan, last first, in one transaction.
 *
 * @example scanInRange(buffer, /\d+/g, buffer.getRange(), ({ matchText }) => log(matchText), false)
 */
export const scanInRange = (
  buffer: ScannedText,
  regex: RegExp,
  range: Range,
  callback: ScanCallback,
  backwards: boolean,
): void => {
  if (!(regex instanceof RegExp)) throw new TypeError('regex must be a RegExp')
  if (typeof callback !== 'function') throw new TypeError('callback must be a function')
  const text = buffer.getTextInRange(range)
  const base = buffer.characterIndexForPosition(range.start)
  const context = anchorContext(buffer, range)
  const replacements: Array<{ range: Range; text: string }> = []
  let stopped = false
  const visit = ({ start, end, match }: TextMatch): boolean => {
    const matchRange = new Range(
      buffer.positionForCharacterIndex(base + start),
      buffer.positionForCharacterIndex(base + end),
    )
    callback({
      match,
      matchText: match[0],
      range: matchRange,
      stop: () => {
        stopped = true
      },
      replace: (replacement: string) => {
        replacements.push({ range: matchRange, text: replacement })
      },
    })
    return stopped
  }
  if (backwards) {
    const matches: TextMatch[] = []
    searchText(regex, text, context, (match) => {
      matches.push(match)
      return false
    })
    for (let i = matches.length - 1; i >= 0 && !stopped; i--) visit(matches[i]!)
  } else {
    searchText(regex, text, context, visit)
  }
  if (replacements.length === 0) return
  replacements.sort((a, b) => b.range.start.compare(a.range.start))
  buffer.transact(() => {
    for (const r of replacements) buffer.setTextInRange(r.range, r.text)
  })
}

/**
 * The ranges of the first `limit` matches of `regex` in `range`, first to last: a forward scan
 * without results to hand out, for the synchronous finds cursors call per keystroke.
 *
 * @example findRangesInRange(buffer, /\w+/g, buffer.getRange(), 1)
 */
export const findRangesInRange = (
  buffer: ScannedText,
  regex: RegExp,
  range: Range,
  limit: number,
): Range[] => {
  if (!(regex instanceof RegExp)) throw new TypeError('regex must be a RegExp')
  const base = buffer.characterIndexForPosition(range.start)
  const ranges: Range[] = []
  if (limit <= 0) return ranges
  searchText(regex, buffer.getTextInRange(range), anchorContext(buffer, range), (match) => {
    const start = buffer.positionForCharacterIndex(base + match.start)
    const end =
      match.end === match.start ? start : buffer.positionForCharacterIndex(base + match.end)
    return ranges.push(new Range(start, end)) >= limit
  })
  return ranges
}

/** Whether `range` starts and ends at line boundaries (for `^` and `$`). */
const anchorContext = (buffer: ScannedText, range: Range) => ({
  startsLine: range.start.column === 0,
  endsLine: range.end.column === buffer.lineLengthForRow(range.end.row),
})
