/**
 * Who made what in a document: for every Yjs id the server has stored, the user whose update
 * inserted it and the user whose update deleted it, with when. Kept as runs of client clocks
 * (see `ClientRuns`), so a user typing a paragraph costs one run, not one entry per character.
 *
 * Times are kept to the minute (`ATTRIBUTION_RESOLUTION_MS`): the runs of one user within a
 * minute join, and a hover that says "Ada, 10:42" needs no more.
 *
 * @module
 */
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { ClientRuns } from './client-runs.js'
import type { IdRanges, UpdateIds } from './update-ids.js'

/** The unit attribution times are kept in, in milliseconds. */
export const ATTRIBUTION_RESOLUTION_MS = 60_000

/** Who made a change, and when (ms since the epoch, rounded down to the minute). */
export interface Authorship {
  /** The user id (a token's user, else the awareness user id, else "anonymous"). */
  readonly user: string
  /** When the server stored it. */
  readonly time: number
  /**
   * Who accepted it, when it was a program's proposal a person accepted (see
   * `@tandem/protocol`'s proposals); null for a change its author made directly.
   */
  readonly acceptedBy: string | null
}

/**
 * The format of `Attribution.encode`, so a later one can be told apart: the users (each name
 * once), the authors (a user's index, a minute as the difference from the author before, and
 * who accepted it: 0 for nobody, else a user's index + 1), then the runs of insertions and of
 * deletions per client. Format 1 had no accepter; it is still read.
 */
const FORMAT = 2

/**
 * The authors of a document's insertions and deletions, by Yjs id. First record wins: an id
 * the server has seen keeps its author however often it is sent again.
 *
 * @example attribution.record(idsOfUpdate(update), 'ada', Date.now())
 */
export class Attribution {
  private readonly authors: Authorship[] = []
  private readonly authorIndex = new Map<string, number>()
  private readonly inserted = new Map<number, ClientRuns>()
  private readonly deleted = new Map<number, ClientRuns>()

  /**
   * Records that `user` made the insertions and deletions of `ids` at `time`, accepted by
   * `acceptedBy` when it was a proposal someone accepted.
   *
   * @example attribution.record(idsOfUpdate(update), 'ada', Date.now())
   */
  record(ids: UpdateIds, user: string, time: number, acceptedBy: string | null = null): void {
    // An update that only repeats what others made (a client's state sent again, its whole
    // delete set with it) names nobody new: its sender does not become an author.
    if (!hasNew(this.inserted, ids.inserted) && !hasNew(this.deleted, ids.deleted)) return
    const author = this.authorOf(user, time, acceptedBy)
    addAll(this.inserted, ids.inserted, author)
    addAll(this.deleted, ids.deleted, author)
  }

  /** Every user with a run, in the order first recorded. */
  users(): string[] {
    return [...new Set(this.authors.map(({ user }) => user))]
  }

  /**
   * The users with something recorded at or after `time` (to the minute), in the order first
   * recorded: who changed the document since then, and who accepted proposals meanwhile.
   *
   * @example attribution.usersSince(lastVersion.time) // => ['ada', 'bob']
   */
  usersSince(time: number): string[] {
    const minute = Math.floor(time / ATTRIBUTION_RESOLUTION_MS) * ATTRIBUTION_RESOLUTION_MS
    const users = new Set<string>()
    for (const author of this.authors) {
      if (author.time < minute) continue
      users.add(author.user)
      if (author.acceptedBy !== null) users.add(author.acceptedBy)
    }
    return [...users]
  }

  /** Number of runs kept (insertions and deletions), a measure of its size. */
  get runCount(): number {
    let count = 0
    for (const runs of this.inserted.values()) count += runs.size
    for (const runs of this.deleted.values()) count += runs.size
    return count
  }

  /**
   * Calls `visit` for `client`'s clocks `clock` to `clock + length - 1`, a stretch at a time,
   * with who inserted it (null where nobody is recorded).
   *
   * @example attribution.forEachInserted(client, 0, 10, (clock, length, who) => …)
   */
  forEachInserted(
    client: number,
    clock: number,
    length: number,
    visit: (clock: number, length: number, author: Authorship | null) => void,
  ): void {
    this.forEachIn(this.inserted, client, clock, length, visit)
  }

  /**
   * Calls `visit` for `client`'s clocks `clock` to `clock + length - 1`, a stretch at a time,
   * with who deleted it (null where nobody did, as far as the server knows).
   *
   * @example attribution.forEachDeleted(client, 0, 10, (clock, length, who) => …)
   */
  forEachDeleted(
    client: number,
    clock: number,
    length: number,
    visit: (clock: number, length: number, author: Authorship | null) => void,
  ): void {
    this.forEachIn(this.deleted, client, clock, length, visit)
  }

  /**
   * Adds every run of `newer` that this one does not hold (this one's authors win where both
   * hold an id: it was recorded first). Folds a log's attribution into the compacted one.
   *
   * @example base.adopt(fromLog)
   */
  adopt(newer: Attribution): void {
    for (const [kind, from] of [
      [this.inserted, newer.inserted],
      [this.deleted, newer.deleted],
    ] as const) {
      for (const [client, runs] of from) {
        runs.forEach((clock, length, author) => {
          const { user, time, acceptedBy } = newer.authors[author]!
          clientRuns(kind, client).add(clock, length, this.authorOf(user, time, acceptedBy))
        })
      }
    }
  }

  /**
   * The attribution as bytes, for the store.
   *
   * @example store.saveAttribution(room, attribution.encode())
   */
  encode(): Uint8Array {
    const encoder = encoding.createEncoder()
    encoding.writeVarUint(encoder, FORMAT)
    const users = new Map<string, number>()
    for (const { user, acceptedBy } of this.authors) {
      if (!users.has(user)) users.set(user, users.size)
      if (acceptedBy !== null && !users.has(acceptedBy)) users.set(acceptedBy, users.size)
    }
    encoding.writeVarUint(encoder, users.size)
    for (const user of users.keys()) encoding.writeVarString(encoder, user)
    encoding.writeVarUint(encoder, this.authors.length)
    let previousMinute = 0
    for (const { user, time, acceptedBy } of this.authors) {
      const minute = Math.floor(time / ATTRIBUTION_RESOLUTION_MS)
      encoding.writeVarUint(encoder, users.get(user)!)
      encoding.writeVarInt(encoder, minute - previousMinute)
      encoding.writeVarUint(encoder, acceptedBy === null ? 0 : users.get(acceptedBy)! + 1)
      previousMinute = minute
    }
    for (const kind of [this.inserted, this.deleted]) {
      encoding.writeVarUint(encoder, kind.size)
      for (const [client, runs] of kind) {
        encoding.writeVarUint(encoder, client)
        encoding.writeVarUint(encoder, runs.size)
        let previousEnd = 0
        runs.forEach((clock, length, author) => {
          encoding.writeVarUint(encoder, clock - previousEnd)
          encoding.writeVarUint(encoder, length)
          encoding.writeVarUint(encoder, author)
          previousEnd = clock + length
        })
      }
    }
    return encoding.toUint8Array(encoder)
  }

  /**
   * Reads what `encode` wrote. Throws a `TypeError` when the bytes are not an attribution.
   *
   * @example Attribution.decode(await store.loadAttribution(room))
   */
  static decode(bytes: Uint8Array): Attribution {
    const attribution = new Attribution()
    try {
      const decoder = decoding.createDecoder(bytes)
      const format = decoding.readVarUint(decoder)
      if (format !== FORMAT && format !== 1) {
        throw new TypeError(`unknown attribution format ${format}`)
      }
      const userCount = decoding.readVarUint(decoder)
      const users: string[] = []
      for (let i = 0; i < userCount; i++) users.push(decoding.readVarString(decoder))
      const authorCount = decoding.readVarUint(decoder)
      const authors: number[] = []
      let minute = 0
      for (let i = 0; i < authorCount; i++) {
        const user = users[decoding.readVarUint(decoder)]
        minute += decoding.readVarInt(decoder)
        if (user === undefined || minute < 0) throw new TypeError('an author without user')
        const accepter = format === 1 ? 0 : decoding.readVarUint(decoder)
        const acceptedBy = accepter === 0 ? null : users[accepter - 1]
        if (acceptedBy === undefined) throw new TypeError('an accepter without user')
        authors.push(attribution.authorOf(user, minute * ATTRIBUTION_RESOLUTION_MS, acceptedBy))
      }
      for (const kind of [attribution.inserted, attribution.deleted]) {
        const clients = decoding.readVarUint(decoder)
        for (let c = 0; c < clients; c++) {
          const runs = clientRuns(kind, decoding.readVarUint(decoder))
          const count = decoding.readVarUint(decoder)
          let previousEnd = 0
          for (let r = 0; r < count; r++) {
            const clock = previousEnd + decoding.readVarUint(decoder)
            const length = decoding.readVarUint(decoder)
            const author = authors[decoding.readVarUint(decoder)]
            if (author === undefined || length === 0) throw new TypeError('a run without author')
            runs.add(clock, length, author)
            previousEnd = clock + length
          }
        }
      }
      if (decoding.hasContent(decoder)) throw new TypeError('bytes after the attribution')
    } catch (error) {
      throw new TypeError(`not an attribution: ${(error as Error).message}`)
    }
    return attribution
  }

  private forEachIn(
    kind: Map<number, ClientRuns>,
    client: number,
    clock: number,
    length: number,
    visit: (clock: number, length: number, author: Authorship | null) => void,
  ): void {
    const runs = kind.get(client)
    if (runs === undefined) {
      visit(clock, length, null)
      return
    }
    runs.forEachIn(clock, length, (at, size, author) =>
      visit(at, size, author < 0 ? null : this.authors[author]!),
    )
  }

  private authorOf(user: string, time: number, acceptedBy: string | null): number {
    const minute = Math.floor(time / ATTRIBUTION_RESOLUTION_MS)
    const key = `${minute}\u0000${user}\u0000${acceptedBy ?? ''}`
    let index = this.authorIndex.get(key)
    if (index === undefined) {
      index = this.authors.length
      this.authors.push({ user, time: minute * ATTRIBUTION_RESOLUTION_MS, acceptedBy })
      this.authorIndex.set(key, index)
    }
    return index
  }
}

const clientRuns = (kind: Map<number, ClientRuns>, client: number): ClientRuns => {
  let runs = kind.get(client)
  if (runs === undefined) {
    runs = new ClientRuns()
    kind.set(client, runs)
  }
  return runs
}

/** Whether `ranges` hold a clock that `kind` has no author for yet. */
const hasNew = (kind: Map<number, ClientRuns>, ranges: IdRanges): boolean => {
  for (const [client, list] of ranges) {
    const runs = kind.get(client)
    if (runs === undefined) {
      if (list.length > 0) return true
      continue
    }
    for (const { clock, length } of list) {
      let found = false
      runs.forEachIn(clock, length, (_at, _size, author) => {
        if (author < 0) found = true
      })
      if (found) return true
    }
  }
  return false
}

const addAll = (kind: Map<number, ClientRuns>, ranges: IdRanges, author: number): void => {
  for (const [client, list] of ranges) {
    const runs = clientRuns(kind, client)
    for (const { clock, length } of list) runs.add(clock, length, author)
  }
}
