/**
 * What a program may say along with a change over HTTP, beside its `changes`:
 *
 * - `"selection": {"from", "to"}`: the range it leaves selected, positions in any form a
 *   change takes (see change-specs.ts), in the text as it is after the change; `to` defaults
 *   to `from` (a caret), and may come before `from` (the caret at the start). It shows as the
 *   program's presence in the room (see program-presence.ts).
 * - `"message": "…"`: what the change is, in a few words, kept in the room's change log (at
 *   most `MAX_CHANGE_MESSAGE_LENGTH` characters).
 * - `"name"` and `"color"`: how people see the program (default: its user id, a teal caret).
 *
 * @module
 */
import { isUserColor } from '@tandem/protocol'
import * as Y from 'yjs'
import { ApiError } from '../http-api.js'
import { MAX_CHANGE_MESSAGE_LENGTH } from './change-log.js'
import { type PositionSpec, parseChanges, resolveChanges } from './change-specs.js'
import type { ShownSelection } from './program-presence.js'

/** A selection as sent: positions in the text after the change. */
export interface SelectionSpec {
  /** The end that stays put (the anchor). */
  readonly from: PositionSpec
  /** The caret (the head). */
  readonly to: PositionSpec
}

/** The selection and message of a change request, and how the program shows. */
export interface ChangeNotes {
  /** The selection to show, or null. */
  readonly selection: SelectionSpec | null
  /** The message, or null. */
  readonly message: string | null
  /** The name people see the program by, or null for its user id. */
  readonly name: string | null
  /** The colour of its caret, a CSS colour, or null for the default. */
  readonly color: string | null
}

/** The longest name a program may show by. */
export const MAX_PROGRAM_NAME_LENGTH = 100

/**
 * The `selection` and `message` of a request body, checked; throws an `ApiError` (400)
 * saying what is wrong.
 *
 * @example parseChangeNotes({ changes: [], selection: { from: 3 }, message: 'Fix typo' })
 */
export const parseChangeNotes = (body: unknown): ChangeNotes => {
  const { selection, message, name, color } = (body ?? {}) as {
    selection?: unknown
    message?: unknown
    name?: unknown
    color?: unknown
  }
  if (
    name !== undefined &&
    name !== null &&
    (typeof name !== 'string' || name.trim() === '' || name.length > MAX_PROGRAM_NAME_LENGTH)
  ) {
    throw new ApiError(400, `name must be 1 to ${MAX_PROGRAM_NAME_LENGTH} characters`)
  }
  if (color !== undefined && color !== null && !isUserColor(color)) {
    throw new ApiError(400, 'color must be a CSS hex, name, rgb() or hsl() colour')
  }
  if (message !== undefined && message !== null && typeof message !== 'string') {
    throw new ApiError(400, 'message must be a string')
  }
  if (typeof message === 'string' && message.length > MAX_CHANGE_MESSAGE_LENGTH) {
    throw new ApiError(400, `message may be at most ${MAX_CHANGE_MESSAGE_LENGTH} characters long`)
  }
  let parsed: SelectionSpec | null = null
  if (selection !== undefined && selection !== null) {
    if (typeof selection !== 'object' || !('from' in selection)) {
      throw new ApiError(400, 'selection must be {"from", "to"}')
    }
    const { from, to } = selection as { from: unknown; to?: unknown }
    const [spec] = renamed(() => parseChanges({ changes: [{ from, to: to ?? from }] }))
    parsed = { from: spec!.from, to: spec!.to! }
  }
  return {
    selection: parsed,
    message: typeof message === 'string' ? message : null,
    name: typeof name === 'string' ? name : null,
    color: typeof color === 'string' ? color : null,
  }
}

/**
 * `selection` as relative positions in `text` (as it is after the change): a caret tied to
 * the character after it (assoc 0), a range that does not grow from insertions at its edges
 * (its start assoc 0, its end assoc -1). Throws an `ApiError` for a position outside the text.
 *
 * @example resolveSelection(text, { from: 0, to: 4 })
 */
export const resolveSelection = (text: Y.Text, selection: SelectionSpec): ShownSelection => {
  const content = text.toString()
  const offset = (position: PositionSpec) =>
    renamed(() => resolveChanges(text, [{ from: position }], content))[0]!.from
  const anchor = offset(selection.from)
  const head = offset(selection.to)
  const at = (index: number, isEnd: boolean) =>
    Y.createRelativePositionFromTypeIndex(text, index, isEnd && anchor !== head ? -1 : 0)
  return { anchor: at(anchor, anchor > head), head: at(head, head > anchor) }
}

/** Runs `parse`, saying "selection" where its errors say "change 0". */
const renamed = <T>(parse: () => T): T => {
  try {
    return parse()
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    throw new ApiError(error.status, error.message.replace(/^change 0/, 'selection'))
  }
}
