/**
 * The difference between two states of a document's text, by Yjs ids rather than by
 * comparing characters: a character is kept when both states show the same id, inserted when
 * only the later shows it, deleted when only the earlier does. So the diff says exactly what
 * happened (a word deleted and typed again is a deletion and an insertion, not "nothing"),
 * and each inserted or deleted stretch has the author the attribution recorded for its ids.
 *
 * @module
 */
import * as Y from 'yjs'
import type { Attribution, Authorship } from './attribution.js'
import { ClientRuns } from './client-runs.js'
import { forEachTextItem, forEachVisibleString } from './yjs-items.js'

/** A stretch of a diff: text both states have, or text one of them has. */
export interface DiffRun {
  /** `same` in both, `inserted` only in the later state, `deleted` only in the earlier. */
  readonly kind: 'same' | 'inserted' | 'deleted'
  /** Its characters. */
  readonly text: string
  /** Who inserted (for `inserted`) or deleted (for `deleted`) it; null when unknown or `same`. */
  readonly user: string | null
  /** When (ms since the epoch, to the minute); null with `user`. */
  readonly time: number | null
  /** For an insertion from a program's proposal, who accepted it; else null. */
  readonly acceptedBy: string | null
}

/**
 * One change from the earlier text to the later, as CodeMirror's change specs say it:
 * replace the earlier text's `from` to `to` (offsets in the earlier text) with `insert`.
 */
export interface TextChange {
  /** Where the replaced text starts, in the earlier text. */
  readonly from: number
  /** Where it ends (equal to `from` for an insertion). */
  readonly to: number
  /** What replaces it (empty for a deletion). */
  readonly insert: string
}

/** The visible characters of one state: which ids, and their text. */
class VisibleText {
  readonly ids = new Map<number, ClientRuns>()
  private readonly strings = new Map<number, { clock: number; chars: string }[]>()

  constructor(state: Uint8Array, textName: string) {
    const doc = new Y.Doc()
    try {
      Y.applyUpdate(doc, state)
      forEachVisibleString(doc.getText(textName), (client, clock, chars) => {
        let runs = this.ids.get(client)
        if (runs === undefined) {
          runs = new ClientRuns()
          this.ids.set(client, runs)
        }
        runs.add(clock, chars.length, 0)
        const list = this.strings.get(client)
        if (list === undefined) this.strings.set(client, [{ clock, chars }])
        else list.push({ clock, chars })
      })
    } finally {
      doc.destroy()
    }
    for (const list of this.strings.values()) list.sort((a, b) => a.clock - b.clock)
  }

  /** Calls `visit` for the clocks given, a stretch at a time, with whether this state shows it. */
  forEach(
    client: number,
    clock: number,
    length: number,
    visit: (clock: number, length: number, shown: boolean) => void,
  ): void {
    const runs = this.ids.get(client)
    if (runs === undefined) visit(clock, length, false)
    else runs.forEachIn(clock, length, (at, size, mark) => visit(at, size, mark === 0))
  }

  /** The characters of ids `clock` to `clock + length - 1` of `client`, all shown here. */
  textOf(client: number, clock: number, length: number): string {
    const list = this.strings.get(client)!
    let low = 0
    let high = list.length - 1
    // The last stretch starting at or before `clock`.
    while (low < high) {
      const middle = (low + high + 1) >>> 1
      if (list[middle]!.clock <= clock) low = middle
      else high = middle - 1
    }
    let text = ''
    for (let i = low; text.length < length && i < list.length; i++) {
      const { clock: start, chars } = list[i]!
      const from = Math.max(0, clock + text.length - start)
      text += chars.slice(from, from + length - text.length)
    }
    return text
  }
}

/**
 * The runs of the diff from `earlier` to `later` (each a whole document as one Yjs update,
 * such as a version's state or `Y.encodeStateAsUpdate(doc)`), in document order, neighbours
 * of the same kind and author joined. Authors come from `attribution` when given.
 *
 * @example diffStates(version.state, Y.encodeStateAsUpdate(doc), 'text', attribution)
 */
export const diffStates = (
  earlier: Uint8Array,
  later: Uint8Array,
  textName: string,
  attribution: Attribution | null = null,
): DiffRun[] => {
  const before = new VisibleText(earlier, textName)
  const after = new VisibleText(later, textName)
  // Every item of both states, deleted ones kept, in document order.
  const all = new Y.Doc({ gc: false })
  const runs: DiffRun[] = []
  const push = (kind: DiffRun['kind'], text: string, author: Authorship | null) => {
    const user = author?.user ?? null
    const time = author?.time ?? null
    const acceptedBy = kind === 'inserted' ? (author?.acceptedBy ?? null) : null
    const last = runs[runs.length - 1]
    if (
      last !== undefined &&
      last.kind === kind &&
      last.user === user &&
      last.time === time &&
      last.acceptedBy === acceptedBy
    ) {
      runs[runs.length - 1] = { ...last, text: last.text + text }
    } else {
      runs.push({ kind, text, user, time, acceptedBy })
    }
  }
  try {
    Y.applyUpdate(all, later)
    Y.applyUpdate(all, earlier)
    forEachTextItem(all.getText(textName), (client, clock, length) => {
      before.forEach(client, clock, length, (at, size, shownBefore) => {
        after.forEach(client, at, size, (id, count, shownAfter) => {
          if (shownBefore && shownAfter) {
            push('same', after.textOf(client, id, count), null)
          } else if (shownAfter) {
            const chars = after.textOf(client, id, count)
            authorsIn(attribution, 'inserted', client, id, count, (offset, n, author) =>
              push('inserted', chars.slice(offset, offset + n), author),
            )
          } else if (shownBefore) {
            const chars = before.textOf(client, id, count)
            authorsIn(attribution, 'deleted', client, id, count, (offset, n, author) =>
              push('deleted', chars.slice(offset, offset + n), author),
            )
          }
        })
      })
    })
  } finally {
    all.destroy()
  }
  return runs
}

/**
 * The changes that turn the earlier text of `runs` into the later one, in order, offsets in
 * the earlier text; neighbouring deletions and insertions make one change.
 *
 * @example changesOf(diffStates(a, b, 'text')) // => [{ from: 6, to: 11, insert: 'there' }]
 */
export const changesOf = (runs: readonly DiffRun[]): TextChange[] => {
  const changes: TextChange[] = []
  let offset = 0
  for (const { kind, text } of runs) {
    if (kind === 'same') {
      offset += text.length
      continue
    }
    const last = changes[changes.length - 1]
    const joins = last !== undefined && last.to === offset
    const from = joins ? last.from : offset
    const to = kind === 'deleted' ? offset + text.length : offset
    const insert = (joins ? last.insert : '') + (kind === 'inserted' ? text : '')
    const change = { from, to: Math.max(to, joins ? last.to : to), insert }
    if (joins) changes[changes.length - 1] = change
    else changes.push(change)
    if (kind === 'deleted') offset += text.length
  }
  return changes
}

/** Splits ids into stretches of one author (or one stretch of no author without attribution). */
const authorsIn = (
  attribution: Attribution | null,
  kind: 'inserted' | 'deleted',
  client: number,
  clock: number,
  length: number,
  visit: (offset: number, length: number, author: Authorship | null) => void,
): void => {
  if (attribution === null) {
    visit(0, length, null)
    return
  }
  const each = kind === 'inserted' ? attribution.forEachInserted : attribution.forEachDeleted
  each.call(attribution, client, clock, length, (at, size, author) =>
    visit(at - clock, size, author),
  )
}
