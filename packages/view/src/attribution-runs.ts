/**
 * Who wrote which part of the text on screen, kept as character offsets, and kept right while
 * the text changes before the next answer: text that a change replaced leaves its run, text
 * it inserted belongs to no run (it is not stored yet, as far as the view knows), and what
 * follows a change moves with it.
 */
import type { BufferChange } from '@tandem/buffer'

/** A run of the text by one author: offsets [`from`, `to`), the user (null: not known), when. */
export interface OffsetRun {
  readonly from: number
  readonly to: number
  readonly user: string | null
  readonly time: number | null
}

/** One change in the offsets of the text before it: [`from`, `to`) became `length` units. */
export interface OffsetChange {
  readonly from: number
  readonly to: number
  readonly length: number
}

/**
 * The changes of one transaction as offsets in the text before it, read after it: `offsetOf`
 * gives a point's offset in the text as it is now.
 *
 * @example offsetChanges(event.changes, (point) => buffer.characterIndexForPosition(point))
 */
export const offsetChanges = (
  changes: readonly BufferChange[],
  offsetOf: (point: BufferChange['newRange']['start']) => number,
): OffsetChange[] => {
  let delta = 0
  return changes.map((change) => {
    const from = offsetOf(change.newRange.start) - delta
    const length = change.newText.length
    const to = from + change.oldText.length
    delta += length - change.oldText.length
    return { from, to, length }
  })
}

/**
 * `runs` after `changes` (sorted, in the offsets before them): each run loses what a change
 * replaced and is split where a change inserted inside it; the inserted text is in no run.
 *
 * @example mapRuns([{ from: 0, to: 4, user: 'ada', time: 0 }], [{ from: 2, to: 2, length: 1 }]) // [0, 2) and [3, 5)
 */
export const mapRuns = (
  runs: readonly OffsetRun[],
  changes: readonly OffsetChange[],
): OffsetRun[] => {
  if (changes.length === 0) return [...runs]
  const mapped: OffsetRun[] = []
  for (const run of runs) {
    let pieces: [number, number][] = [[run.from, run.to]]
    for (const change of changes) {
      if (change.to <= run.from && change.from < run.from) continue
      if (change.from >= run.to) break
      const next: [number, number][] = []
      for (const [a, b] of pieces) {
        if (change.from === change.to) {
          if (a < change.from && change.from < b) next.push([a, change.from], [change.from, b])
          else next.push([a, b])
        } else if (change.to <= a || change.from >= b) {
          next.push([a, b])
        } else {
          if (a < change.from) next.push([a, change.from])
          if (change.to < b) next.push([change.to, b])
        }
      }
      pieces = next
    }
    for (const [a, b] of pieces) {
      if (b <= a) continue
      const shift = shiftAt(a, changes)
      mapped.push({ ...run, from: a + shift, to: b + shift })
    }
  }
  return mapped
}

/** How far text at offset `at` (not inside a change) moves: the changes ending at or before it. */
const shiftAt = (at: number, changes: readonly OffsetChange[]): number => {
  let shift = 0
  for (const change of changes) {
    if (change.to > at) break
    shift += change.length - (change.to - change.from)
  }
  return shift
}

/**
 * Span [`from`, `to`) after `changes`: each end moves with the text before it, and a change
 * inside the span widens or narrows it.
 *
 * @example mapSpan({ from: 2, to: 8 }, [{ from: 4, to: 4, length: 3 }]) // { from: 2, to: 11 }
 */
export const mapSpan = (
  span: { readonly from: number; readonly to: number },
  changes: readonly OffsetChange[],
): { from: number; to: number } => {
  const mapOffset = (at: number) => {
    let shift = 0
    for (const change of changes) {
      if (change.from >= at) break
      if (change.to > at) return change.from + shift + change.length
      shift += change.length - (change.to - change.from)
    }
    return at + shift
  }
  const from = mapOffset(span.from)
  return { from, to: Math.max(from, mapOffset(span.to)) }
}
