/**
 * Changes a program sends over HTTP, in the forms it may know positions by: an offset in
 * the text (UTF-16 units), a line and column (0-based, the column in UTF-16 units), or a Yjs
 * relative position (JSON, as `GET /api/rooms/<room>?anchors=` gives them), which still means
 * the same place after others have edited. Every change's positions are in the text as it is
 * before any of them, as CodeMirror's change specs are; changes may come in any order but must
 * not overlap.
 *
 * @module
 */
import { relativePositionFromJSON } from '@tandem/protocol'
import * as Y from 'yjs'
import { ApiError } from '../http-api.js'

/** A position in one of the three forms. */
export type PositionSpec = number | LineColumn | RelativeSpec

/** A position by line and column, both 0-based; the column counts UTF-16 units. */
export interface LineColumn {
  /** The line (0 is the first). */
  readonly line: number
  /** The column in that line. */
  readonly column: number
}

/** A position as a Yjs relative position (its JSON), which follows the text it names. */
export interface RelativeSpec {
  /** `Y.relativePositionToJSON` of the position, as `?anchors=` gives it. */
  readonly relative: unknown
}

/** One change as sent: replace `from` to `to` (default `from`) with `insert` (default ''). */
export interface ChangeSpec {
  /** Where the replaced text starts. */
  readonly from: PositionSpec
  /** Where it ends (default: `from`, an insertion). */
  readonly to?: PositionSpec
  /** What replaces it (default: nothing, a deletion). */
  readonly insert?: string
}

/** A change in offsets of the text it applies to. */
export interface ResolvedChange {
  /** Where the replaced text starts. */
  readonly from: number
  /** Where it ends. */
  readonly to: number
  /** What replaces it. */
  readonly insert: string
}

/** The most changes one request may make. */
export const MAX_CHANGES = 10_000

/**
 * The changes of a request body `{"changes": [...]}`, checked for shape; throws an
 * `ApiError` (400) saying what is wrong.
 *
 * @example parseChanges({ changes: [{ from: 0, insert: 'Title\n' }] })
 */
export const parseChanges = (body: unknown): ChangeSpec[] => {
  const changes = (body as { changes?: unknown } | null)?.changes
  if (!Array.isArray(changes)) {
    throw new ApiError(400, 'the body must be {"changes": [{"from", "to", "insert"}, ...]}')
  }
  if (changes.length > MAX_CHANGES) {
    throw new ApiError(400, `at most ${MAX_CHANGES} changes in one request, got ${changes.length}`)
  }
  return changes.map((change, i) => {
    if (typeof change !== 'object' || change === null) {
      throw new ApiError(400, `change ${i} must be an object`)
    }
    const { from, to, insert } = change as Record<string, unknown>
    checkPosition(from, `change ${i}: from`)
    if (to !== undefined) checkPosition(to, `change ${i}: to`)
    if (insert !== undefined && typeof insert !== 'string') {
      throw new ApiError(400, `change ${i}: insert must be a string`)
    }
    if (typeof insert === 'string' && LONE_SURROGATE.test(insert)) {
      throw new ApiError(400, `change ${i}: insert holds half a surrogate pair`)
    }
    return change as ChangeSpec
  })
}

/**
 * The offsets of `specs` in `text` as it is now, sorted; throws an `ApiError` (400 or 409)
 * when a position is outside the text, a relative position names text this document does not
 * have, a change ends before it starts, or two changes overlap.
 *
 * @example resolveChanges(doc.getText('text'), parseChanges(body))
 */
export const resolveChanges = (
  text: Y.Text,
  specs: readonly ChangeSpec[],
  /** The text's content, when the caller has read it already (reading it walks the text). */
  content: string = text.toString(),
): ResolvedChange[] => {
  let lineStarts: number[] | null = null
  const offsetOf = (position: PositionSpec, what: string): number => {
    if (typeof position === 'number') {
      if (position > content.length) {
        throw new ApiError(
          400,
          `${what}: ${position} is past the end of the text (${content.length})`,
        )
      }
      return position
    }
    if ('line' in position) {
      lineStarts ??= startsOfLines(content)
      const start = lineStarts[position.line]
      if (start === undefined) {
        throw new ApiError(
          400,
          `${what}: line ${position.line} is past the last (${lineStarts.length - 1})`,
        )
      }
      const end = lineStarts[position.line + 1] ?? content.length + 1
      if (start + position.column > end - 1) {
        throw new ApiError(
          400,
          `${what}: column ${position.column} is past the end of line ${position.line}`,
        )
      }
      return start + position.column
    }
    const relative = relativePositionFromJSON(position.relative)
    if (relative === null) throw new ApiError(400, `${what}: not a relative position`)
    const absolute = Y.createAbsolutePositionFromRelativePosition(relative, text.doc!)
    if (absolute === null || absolute.type !== text) {
      throw new ApiError(
        409,
        `${what}: the relative position names text this document does not have`,
      )
    }
    return absolute.index
  }
  const wholeOffsetOf = (position: PositionSpec, what: string): number => {
    const offset = offsetOf(position, what)
    if (
      isLowSurrogate(content.charCodeAt(offset)) &&
      isHighSurrogate(content.charCodeAt(offset - 1))
    ) {
      throw new ApiError(400, `${what}: offset ${offset} is inside a character (a surrogate pair)`)
    }
    return offset
  }
  const resolved = specs.map((spec, i) => {
    const from = wholeOffsetOf(spec.from, `change ${i}: from`)
    const to = spec.to === undefined ? from : wholeOffsetOf(spec.to, `change ${i}: to`)
    if (to < from) throw new ApiError(400, `change ${i}: to (${to}) is before from (${from})`)
    return { from, to, insert: spec.insert ?? '' }
  })
  resolved.sort((a, b) => a.from - b.from || a.to - b.to)
  for (let i = 1; i < resolved.length; i++) {
    if (resolved[i]!.from < resolved[i - 1]!.to) {
      throw new ApiError(400, 'changes must not overlap')
    }
  }
  return resolved
}

/**
 * Applies `changes` (sorted offsets of the text as it is) to `text`, last first so each
 * offset still holds.
 */
export const applyChanges = (text: Y.Text, changes: readonly ResolvedChange[]): void => {
  for (let i = changes.length - 1; i >= 0; i--) {
    const { from, to, insert } = changes[i]!
    if (to > from) text.delete(from, to - from)
    if (insert !== '') text.insert(from, insert)
  }
}

/** Half of a surrogate pair without its other half. */
const LONE_SURROGATE = /\p{Cs}/u

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

const checkPosition = (value: unknown, what: string): void => {
  if (typeof value === 'number') {
    if (!(Number.isSafeInteger(value) && value >= 0)) {
      throw new ApiError(400, `${what} must be a whole number of at least 0, got ${value}`)
    }
    return
  }
  if (typeof value === 'object' && value !== null) {
    const { line, column, relative } = value as Record<string, unknown>
    if (line !== undefined || column !== undefined) {
      const whole = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0
      if (whole(line) && whole(column)) return
      throw new ApiError(400, `${what}: line and column must be whole numbers of at least 0`)
    }
    if (relative !== undefined) return
  }
  throw new ApiError(
    400,
    `${what} must be an offset, {"line", "column"} or {"relative": <relative position>}`,
  )
}

/** The offset each line starts at (after "\n" or "\r\n"). */
const startsOfLines = (content: string): number[] => {
  const starts = [0]
  for (let i = 0; i < content.length; i++) if (content.charCodeAt(i) === 10) starts.push(i + 1)
  return starts
}
