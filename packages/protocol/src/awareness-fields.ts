/**
 * The fields Tandem reads and writes in a Yjs awareness state, shared with other bindings:
 *
 * - `user: {name, color, colorLight}` (and Tandem's optional `id`, naming the person across
 *   tabs), as y-codemirror.next and y-monaco use it;
 * - `cursor: {anchor, head}`: the primary selection, as y-codemirror.next reads it;
 * - `selections: [{anchor, head}, ...]`: every selection, the primary one last (multi-cursor;
 *   other bindings ignore it);
 * - `viewport` and `following`, for following a peer (see viewport-fields.ts).
 *
 * Anchors and heads are relative positions in their full JSON form (see relative-json.ts).
 * A peer's state comes from the network: the readers here take what is well-formed and leave
 * the rest, and never throw.
 */
import type * as Y from 'yjs'
import { type RelativePositionJSON, relativePositionFromJSON } from './relative-json.js'
import type { AwarenessViewport } from './viewport-fields.js'

/**
 * Who a peer is, as its awareness `user` field says. `id` tells the user's own other tabs
 * apart from other people; without it, the same name and color do.
 *
 * @example { name: 'Ada', color: '#d33', colorLight: '#d333', id: 'ada@example.org' }
 */
export interface AwarenessUser {
  /** Shown beside the caret. */
  readonly name: string
  /** The caret's CSS color, e.g. `#d33`. */
  readonly color: string
  /** The selection's CSS color, usually `color` made translucent; `color` is used when absent. */
  readonly colorLight?: string
  /** Names the person across tabs and reconnections, so their tabs know each other. */
  readonly id?: string
  /** True for a program (a bot, an assistant) rather than a person; views mark it as one. */
  readonly agent?: boolean
}

/** A selection in awareness: where it starts (`anchor`) and where its caret is (`head`). */
export interface AwarenessSelection {
  /** The end that stays put when the selection grows. */
  readonly anchor: RelativePositionJSON
  /** The end with the caret. */
  readonly head: RelativePositionJSON
}

/**
 * The fields of an awareness state Tandem writes; a state may hold others too.
 *
 * @example awareness.setLocalStateField('selections', fields.selections)
 */
export interface AwarenessFields {
  /** Who the peer is. */
  readonly user?: AwarenessUser
  /** The primary selection, or null when the peer shows none. */
  readonly cursor?: AwarenessSelection | null
  /** Every selection, the primary one last, or null when the peer shows none. */
  readonly selections?: readonly AwarenessSelection[] | null
  /** The rows the peer has in sight, or null when it shows none (see `readViewport`). */
  readonly viewport?: AwarenessViewport | null
  /** The client id of the peer this one follows, or null (see `readFollowing`). */
  readonly following?: number | null
}

/** A selection read from a peer's state, as relative positions. */
export interface RelativeSelection {
  /** The end that stays put when the selection grows. */
  readonly anchor: Y.RelativePosition
  /** The end with the caret. */
  readonly head: Y.RelativePosition
}

const readSelection = (value: unknown): RelativeSelection | null => {
  if (typeof value !== 'object' || value === null) return null
  const { anchor, head } = value as Record<string, unknown>
  const a = relativePositionFromJSON(anchor)
  const h = relativePositionFromJSON(head)
  return a === null || h === null ? null : { anchor: a, head: h }
}

/**
 * At most this many selections are taken from one peer's state (it is untrusted input): shown
 * by editors, kept by servers as the peer's session. A publisher sends no more.
 */
export const MAX_REMOTE_SELECTIONS = 10_000

/**
 * A peer's selections from its awareness state: its `selections` when it has that field,
 * else its `cursor`; entries that are not well-formed are skipped. Empty when it shows none.
 *
 * @example readSelections({ cursor: { anchor, head } }).length // => 1
 */
export const readSelections = (state: Readonly<Record<string, unknown>>): RelativeSelection[] => {
  const { selections, cursor } = state
  const entries = Array.isArray(selections)
    ? selections.slice(0, MAX_REMOTE_SELECTIONS)
    : cursor === null || cursor === undefined
      ? []
      : [cursor]
  const read: RelativeSelection[] = []
  for (const entry of entries) {
    const selection = readSelection(entry)
    if (selection !== null) read.push(selection)
  }
  return read
}

/**
 * The longest user id: a server keeps sessions under ids up to this long, and a reader keeps
 * this much of a peer's id, so a user's tabs know each other by any id a server accepts.
 */
export const MAX_USER_ID_LENGTH = 256

const COLOR = /^#[0-9a-fA-F]{3,8}$|^[a-z]+$|^(rgb|hsl)a?\([0-9., %]+\)$/

/**
 * Whether `value` is a colour a peer's user may carry: a CSS hex, name, rgb() or hsl()
 * colour, nothing that could reach beyond a colour in a style.
 *
 * @example isUserColor('#1a7f7a') // => true
 */
export const isUserColor = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 64 && COLOR.test(value)

/**
 * A peer's user from its awareness state, with safe defaults for missing or odd fields (a
 * name is cut to 100 characters, an id to `MAX_USER_ID_LENGTH`; a color must be a CSS hex,
 * name, rgb() or hsl() color).
 *
 * @example readUser({ user: { name: 'Ada', color: '#d33' } }, 7).name // => 'Ada'
 */
export const readUser = (
  state: Readonly<Record<string, unknown>>,
  clientId: number,
): AwarenessUser => {
  const user = (typeof state.user === 'object' && state.user !== null ? state.user : {}) as Record<
    string,
    unknown
  >
  const name =
    typeof user.name === 'string' && user.name.trim() !== ''
      ? user.name.slice(0, 100)
      : `peer ${clientId}`
  const color = typeof user.color === 'string' && COLOR.test(user.color) ? user.color : '#888888'
  const colorLight =
    typeof user.colorLight === 'string' && COLOR.test(user.colorLight) ? user.colorLight : undefined
  const id = typeof user.id === 'string' ? user.id.slice(0, MAX_USER_ID_LENGTH) : undefined
  return {
    name,
    color,
    ...(colorLight === undefined ? {} : { colorLight }),
    ...(id === undefined ? {} : { id }),
    ...(user.agent === true ? { agent: true } : {}),
  }
}

/**
 * `value` when it can name a user (a string of 1 to `MAX_USER_ID_LENGTH` characters), else
 * null.
 *
 * @example usableUserId('ada@example.org') // => 'ada@example.org'
 */
export const usableUserId = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_USER_ID_LENGTH ? value : null

/**
 * The user id an awareness state claims (`user.id`, when usable), or null. A server trusts it
 * only for connections it did not authenticate; an authenticated connection's user comes from
 * its token.
 *
 * @example readUserId({ user: { name: 'Ada', color: '#d33', id: 'ada' } }) // => 'ada'
 */
export const readUserId = (state: Readonly<Record<string, unknown>>): string | null => {
  const { user } = state
  if (typeof user !== 'object' || user === null) return null
  return usableUserId((user as Record<string, unknown>).id)
}
