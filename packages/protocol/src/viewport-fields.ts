/**
 * The awareness fields of following a peer:
 *
 * - `viewport: {start, end}`: the part of the document a peer has in sight, from the start of
 *   its first row in sight to the end of its last, as relative positions in their full JSON
 *   form (the shape of `cursor`'s ends);
 * - `following: clientId`: the awareness client id of the peer this one follows, so that the
 *   followed peer can list its followers.
 *
 * Other bindings ignore both. Read from a peer's untrusted state, a value that is not
 * well-formed (or larger than `MAX_VIEWPORT_JSON_LENGTH`) reads as absent, never as an error.
 */
import type * as Y from 'yjs'
import { type RelativePositionJSON, relativePositionFromJSON } from './relative-json.js'

/**
 * A viewport in awareness: where a peer's rows in sight start and end.
 *
 * @example { start: relativePositionToJSON(top), end: relativePositionToJSON(bottom) }
 */
export interface AwarenessViewport {
  /** The start of the first row in sight, tied to the character after it. */
  readonly start: RelativePositionJSON
  /** The end of the last row in sight, tied to the character before it. */
  readonly end: RelativePositionJSON
}

/** A viewport read from a peer's state, as relative positions. */
export interface RelativeViewport {
  /** The start of the first row in sight. */
  readonly start: Y.RelativePosition
  /** The end of the last row in sight. */
  readonly end: Y.RelativePosition
}

/**
 * The longest `viewport` field taken from a peer's state, in characters of its JSON: two
 * relative positions with room for a long root type name. A publisher's is far shorter.
 */
export const MAX_VIEWPORT_JSON_LENGTH = 1_024

/** The largest Yjs client id: client ids are unsigned 32-bit integers. */
const MAX_CLIENT_ID = 0xffff_ffff

/**
 * A peer's viewport from its awareness state, or null when it has none or it is malformed or
 * too large (see `MAX_VIEWPORT_JSON_LENGTH`).
 *
 * @example readViewport({ viewport: { start, end } })?.start // => a Y.RelativePosition
 */
export const readViewport = (state: Readonly<Record<string, unknown>>): RelativeViewport | null => {
  const { viewport } = state
  if (typeof viewport !== 'object' || viewport === null || Array.isArray(viewport)) return null
  // A state arrives parsed from JSON, so it has no cycles and this cannot throw.
  if (JSON.stringify(viewport).length > MAX_VIEWPORT_JSON_LENGTH) return null
  const { start, end } = viewport as Record<string, unknown>
  const from = relativePositionFromJSON(start)
  const to = relativePositionFromJSON(end)
  return from === null || to === null ? null : { start: from, end: to }
}

/**
 * The client id a peer's awareness state says it follows, or null when it follows nobody or
 * the field is not a Yjs client id (an integer from 0 to 2^32 - 1).
 *
 * @example readFollowing({ following: 42 }) // => 42
 */
export const readFollowing = (state: Readonly<Record<string, unknown>>): number | null => {
  const { following } = state
  return typeof following === 'number' &&
    Number.isInteger(following) &&
    following >= 0 &&
    following <= MAX_CLIENT_ID
    ? following
    : null
}
