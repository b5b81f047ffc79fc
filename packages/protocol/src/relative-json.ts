/**
 * Relative positions in awareness states, in the shape every Yjs editor binding reads.
 *
 * Awareness states travel as JSON. A `Y.RelativePosition` object put in a state serializes
 * with all four of its fields, `null`s included: `{type, tname, item, assoc}`. That is what
 * y-codemirror.next puts there and what it expects back; `Y.relativePositionToJSON` leaves
 * out the `null` fields, and some bindings fail on that compact form. So Tandem writes the
 * full form, and reads either, checking every field, since the state comes from the network.
 */
import * as Y from 'yjs'

/** A Yjs item id as JSON. */
export interface IdJSON {
  /** The Yjs client that made the item. */
  readonly client: number
  /** The item's number in that client's sequence. */
  readonly clock: number
}

/**
 * A relative position as it travels in awareness: all four keys, `null` where unset.
 *
 * @example { type: null, tname: null, item: { client: 7, clock: 120 }, assoc: -1 }
 */
export interface RelativePositionJSON {
  /** The id of the type, when `item` is null (the position is at its end) and it is not a root type. */
  readonly type: IdJSON | null
  /** The name of the root type, when `item` is null (the position is at its end). */
  readonly tname: string | null
  /** The id of the character the position sticks to. */
  readonly item: IdJSON | null
  /** The side: at least 0 sticks to the character after, negative to the one before. */
  readonly assoc: number
}

const idToJSON = (id: Y.ID | null): IdJSON | null =>
  id === null ? null : { client: id.client, clock: id.clock }

/**
 * The full JSON form of `position`, every key present.
 *
 * @example relativePositionToJSON(marker.getRelativeRange().start).assoc // => -1
 */
export const relativePositionToJSON = (position: Y.RelativePosition): RelativePositionJSON => ({
  type: idToJSON(position.type),
  tname: position.tname,
  item: idToJSON(position.item),
  assoc: position.assoc,
})

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

const idFromJSON = (value: unknown): Y.ID | null | undefined => {
  if (value === null || value === undefined) return null
  if (typeof value !== 'object') return undefined
  const { client, clock } = value as Record<string, unknown>
  return isCount(client) && isCount(clock) ? Y.createID(client, clock) : undefined
}

/**
 * A relative position read from awareness JSON (full or compact form), or null when `value`
 * is not one: a peer's state is untrusted input.
 *
 * @example relativePositionFromJSON({ item: { client: 7, clock: 120 } })?.assoc // => 0
 */
export const relativePositionFromJSON = (value: unknown): Y.RelativePosition | null => {
  if (typeof value !== 'object' || value === null) return null
  const json = value as Record<string, unknown>
  const type = idFromJSON(json.type)
  const item = idFromJSON(json.item)
  if (type === undefined || item === undefined) return null
  const tname = json.tname ?? null
  if (tname !== null && typeof tname !== 'string') return null
  const assoc = json.assoc ?? 0
  if (typeof assoc !== 'number' || !Number.isInteger(assoc)) return null
  if (type === null && tname === null && item === null) return null
  return new Y.RelativePosition(type, tname, item, assoc)
}
