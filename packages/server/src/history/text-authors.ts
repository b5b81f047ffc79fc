/**
 * Who wrote each part of a text: the runs of one author over a range of a Y.Text as it reads
 * now, from the ids of its characters and an `Attribution`.
 *
 * @module
 */
import type * as Y from 'yjs'
import { ATTRIBUTION_RESOLUTION_MS, type Attribution, type Authorship } from './attribution.js'
import { forEachTextItem, forEachVisibleRun } from './yjs-items.js'

/** A stretch of the current text written by one user at one time. */
export interface AuthorRun {
  /** Offset of its first character (UTF-16 units). */
  readonly from: number
  /** Offset after its last character. */
  readonly to: number
  /** Who inserted it; null for text the server has no record of (written before it kept any). */
  readonly user: string | null
  /** When (ms since the epoch, to the minute); null with `user`. */
  readonly time: number | null
  /** Who accepted it, when it was a program's proposal a person accepted; else null. */
  readonly acceptedBy: string | null
}

/**
 * The authors of `text` from offset `from` to `to` (clipped to the text), as runs in text
 * order; neighbouring runs of the same user and time are joined. Walks the text's items from
 * its start: O(items before `to`).
 *
 * @example authorsOfText(doc.getText('text'), attribution, 0, 100) // => [{ from: 0, to: 42, user: 'ada', time, acceptedBy: null }, …]
 */
export const authorsOfText = (
  text: Y.Text,
  attribution: Attribution,
  from: number,
  to: number,
): AuthorRun[] => {
  const runs: AuthorRun[] = []
  if (!(to > from)) return runs
  let offset = 0
  const push = (start: number, end: number, author: Authorship | null) => {
    const user = author?.user ?? null
    const time = author?.time ?? null
    const acceptedBy = author?.acceptedBy ?? null
    const last = runs[runs.length - 1]
    if (
      last !== undefined &&
      last.to === start &&
      last.user === user &&
      last.time === time &&
      last.acceptedBy === acceptedBy
    ) {
      runs[runs.length - 1] = { ...last, to: end }
    } else {
      runs.push({ from: start, to: end, user, time, acceptedBy })
    }
  }
  forEachVisibleRun(text, (client, clock, length) => {
    const start = offset
    if (start >= to) return false
    offset += length
    if (offset <= from) return
    const skip = Math.max(0, from - start)
    const take = Math.min(length, to - start) - skip
    attribution.forEachInserted(client, clock + skip, take, (at, size, author) => {
      const begin = start + (at - clock)
      push(begin, begin + size, author)
    })
    return
  })
  return runs
}

/**
 * The users who inserted or deleted any of `text` (deleted text included) at or after `time`
 * (to the minute), and who accepted such changes, in the order the attribution first recorded
 * them: who changed the text since then. Changes to the rest of the document (a program's
 * proposal waiting beside the text, or rejected) make nobody an author of the text.
 *
 * @example textAuthorsSince(doc.getText('text'), attribution, lastVersion.time) // => ['ada']
 */
export const textAuthorsSince = (
  text: Y.Text,
  attribution: Attribution,
  time: number,
): string[] => {
  const minute = Math.floor(time / ATTRIBUTION_RESOLUTION_MS) * ATTRIBUTION_RESOLUTION_MS
  const users = new Set<string>()
  const add = (_clock: number, _length: number, author: Authorship | null) => {
    if (author === null || author.time < minute) return
    users.add(author.user)
    if (author.acceptedBy !== null) users.add(author.acceptedBy)
  }
  forEachTextItem(text, (client, clock, length) => {
    attribution.forEachInserted(client, clock, length, add)
    attribution.forEachDeleted(client, clock, length, add)
  })
  return attribution.usersSince(time).filter((user) => users.has(user))
}
