/**
 * Where many relative positions are in one `Y.Text`, found in one walk of its items, and
 * relative positions for many offsets, made in one walk.
 *
 * Yjs resolves a relative position (`createAbsolutePositionFromRelativePosition`) by finding
 * its character, then walking left to the text's start counting what is visible: O(text) for
 * each position. A list of proposals with a thousand changes each would cost a thousand walks
 * per proposal, every time a peer lists them. Here one walk from the start gives every
 * position's offset at once: O(text + positions × log positions). The walk reads Yjs 13.6's
 * items (`_start`, `right`, `id`, `length`, `deleted`, `countable`, `redone`); a position it
 * cannot place (an item of another type, collected, or redone by an undo) is left to Yjs.
 *
 * @module
 */
import * as Y from 'yjs'

interface Wanted {
  readonly clock: number
  readonly assoc: number
  readonly slot: number
}

/**
 * The offset in `text` of each of `positions` (null where one is not in `text`, or is null),
 * as `Y.createAbsolutePositionFromRelativePosition` would give it, in one walk of the text.
 *
 * @example offsetsInText(ytext, [start, end]) // => [4, 9]
 */
export const offsetsInText = (
  text: Y.Text,
  positions: readonly (Y.RelativePosition | null)[],
): (number | null)[] => {
  const offsets: (number | null | undefined)[] = positions.map(() => undefined)
  const wanted = new Map<number, Wanted[]>()
  positions.forEach((position, slot) => {
    if (position === null) offsets[slot] = null
    else if (position.item !== null) {
      const { client, clock } = position.item
      const list = wanted.get(client)
      const entry = { clock, assoc: position.assoc, slot }
      if (list === undefined) wanted.set(client, [entry])
      else list.push(entry)
    }
  })
  for (const list of wanted.values()) list.sort((a, b) => a.clock - b.clock)
  let visible = 0
  if (wanted.size > 0) {
    for (let item = text._start; item !== null; item = item.right) {
      const list = wanted.get(item.id.client)
      const shown = !item.deleted && item.countable
      if (list !== undefined && item.redone === null) {
        const first = item.id.clock
        const end = first + item.length
        for (let i = firstAtOrAfter(list, first); i < list.length && list[i]!.clock < end; i++) {
          const { clock, assoc, slot } = list[i]!
          offsets[slot] = visible + (shown ? clock - first + (assoc >= 0 ? 0 : 1) : 0)
        }
      }
      if (shown) visible += item.length
    }
  }
  const doc = text.doc
  return offsets.map((offset, slot) => {
    if (offset !== undefined) return offset
    const position = positions[slot]!
    const absolute =
      doc === null ? null : Y.createAbsolutePositionFromRelativePosition(position, doc)
    return absolute !== null && absolute.type === text ? absolute.index : null
  })
}

/** The index of the first entry of `list` (sorted by clock) at or after `clock`. */
const firstAtOrAfter = (list: readonly Wanted[], clock: number): number => {
  let low = 0
  let high = list.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (list[middle]!.clock < clock) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * A relative position (assoc 0, sticking to the character after) for each of `offsets` in
 * `text` (each from 0 to its length), as `Y.createRelativePositionFromTypeIndex` gives it, in
 * one walk of the text. Throws a RangeError for an offset outside the text.
 *
 * @example relativePositionsAt(ytext, [0, 15]).map((position) => position.item?.clock)
 */
export const relativePositionsAt = (
  text: Y.Text,
  offsets: readonly number[],
): Y.RelativePosition[] => {
  for (const offset of offsets) {
    if (!(Number.isSafeInteger(offset) && offset >= 0 && offset <= text.length)) {
      throw new RangeError(`${offset} is not an offset in the text (0 to ${text.length})`)
    }
  }
  const order = offsets
    .map((offset, slot) => ({ offset, slot }))
    .sort((a, b) => a.offset - b.offset)
  const positions: Y.RelativePosition[] = []
  // The type's own fields (its name, for a root type), as Yjs puts them in every position:
  // the position of offset 0 stops at the first character.
  const type = Y.createRelativePositionFromTypeIndex(text, 0)
  let atEnd: Y.RelativePosition | null = null
  let next = 0
  let visible = 0
  for (let item = text._start; item !== null && next < order.length; item = item.right) {
    if (item.deleted || !item.countable) continue
    while (next < order.length && order[next]!.offset < visible + item.length) {
      const { offset, slot } = order[next++]!
      const id = Y.createID(item.id.client, item.id.clock + offset - visible)
      positions[slot] = new Y.RelativePosition(type.type, type.tname, id, 0)
    }
    visible += item.length
  }
  for (; next < order.length; next++) {
    atEnd ??= Y.createRelativePositionFromTypeIndex(text, text.length)
    positions[order[next]!.slot] = atEnd
  }
  return positions
}
