/**
 * Proposals in one room, on the server: writing one as a program's change, listing them with
 * their places resolved in the text as it is, and accepting or rejecting one as a person's
 * change. The proposals themselves are plain JSON in the room's document (see `proposals.ts` of
 * `@tandem/protocol`); this module only reads and writes that map through `Room.change`, so
 * every step is stored, attributed and relayed like any other change.
 *
 * An accepted proposal's text is attributed to the program that proposed it, with who accepted
 * it. The program is the user the server recorded as writing the proposal's map entry, not the
 * user the entry claims: a client could write an entry naming another program.
 *
 * @module
 */
import {
  applyResolvedChanges,
  isProposalId,
  MAX_PROPOSAL_CHANGES,
  MAX_PROPOSAL_TEXT_LENGTH,
  newProposalId,
  type ProposalChangeJSON,
  type ProposalJSON,
  proposalChange,
  proposalsIn,
  proposalsMapName,
  type ResolvedProposalChange,
  readProposal,
  resolveProposal,
  resolveProposals,
} from '@tandem/protocol'
import * as Y from 'yjs'
import { ANONYMOUS_AUTHOR } from '../history/room-attribution.js'
import { idsOfUpdate } from '../history/update-ids.js'
import type { Room } from '../room.js'
import type { DeletedText, ProgramChangeLog } from './change-log.js'
import { deletedBy } from './undo-change.js'

/** The most proposals a room keeps waiting; proposing past it is refused until some are handled. */
export const MAX_PROPOSALS_PER_ROOM = 200

/** Who proposes: a program's user id, and how people see it. */
export interface Proposer {
  /** Its user id: what the proposal, and its text once accepted, is attributed to. */
  readonly user: string
  /** Its name as people see it (default: `user`). */
  readonly name?: string
  /** Its colour, a CSS colour (default: none, the client picks). */
  readonly color?: string | null
}

/** A change to propose, in offsets of the text as it is when proposing. */
export interface OffsetChange {
  /** Where the replaced text starts. */
  readonly from: number
  /** Where it ends (`from` for an insertion). */
  readonly to: number
  /** What the proposal puts there. */
  readonly insert: string
}

/** A proposal's change as it reads now, with the text it would replace. */
export interface ListedProposalChange extends ResolvedProposalChange {
  /** The text now between `from` and `to`, which accepting would replace. */
  readonly replaced: string
}

/** A proposal as listed: as the document holds it, its places resolved in the text now. */
export interface ListedProposal extends Omit<ProposalJSON, 'changes'> {
  /** Its changes in offsets of the text as it is now, sorted and never overlapping. */
  readonly changes: readonly ListedProposalChange[]
}

/** What accepting a proposal did. */
export interface AcceptedProposal {
  /** The proposal's id. */
  readonly id: string
  /** The user its text is attributed to (the program that proposed it). */
  readonly proposer: string
  /** The changes made, in offsets of the text before them, sorted. */
  readonly applied: readonly ResolvedProposalChange[]
}

/** Why a proposal was refused: the room already has `MAX_PROPOSALS_PER_ROOM` waiting. */
export class TooManyProposalsError extends Error {
  /** Always `'TooManyProposalsError'`. */
  override readonly name = 'TooManyProposalsError'
}

/**
 * The proposal JSON for `changes` (offsets in `text` as it is), made by `proposer`. Throws a
 * `RangeError` for an offset outside the text, or what a proposal cannot hold (see
 * `readProposal`'s limits).
 *
 * @example proposalFor(text, { user: 'bot' }, [{ from: 0, to: 5, insert: 'Hi' }], null)
 */
export const proposalFor = (
  text: Y.Text,
  proposer: Proposer,
  changes: readonly OffsetChange[],
  message: string | null,
): ProposalJSON => {
  const proposal: ProposalJSON = {
    id: newProposalId(),
    user: proposer.user,
    name: proposer.name ?? proposer.user,
    color: proposer.color ?? null,
    message,
    at: Date.now(),
    changes: checkChanges(changes).map(
      ({ from, to, insert }): ProposalChangeJSON => proposalChange(text, from, to, insert),
    ),
  }
  // What readers would skip as malformed must not be written: it would wait unseen.
  if (readProposal(proposal.id, proposal) === null) {
    throw new RangeError(
      "a proposal's user and name must be 1 to 200 characters, its colour at most 64",
    )
  }
  return proposal
}

/**
 * Writes a proposal into `room` as a change by `proposer.user`; `changesOf` gives its changes
 * in offsets of the text as it is then (and may throw to refuse them). Resolves with its id once
 * it is stored. Throws a `TooManyProposalsError` when the room has too many waiting.
 *
 * @example await proposeIn(room, { user: 'bot' }, null, () => [{ from: 0, to: 0, insert: '# ' }])
 */
export const proposeIn = async (
  room: Room,
  proposer: Proposer,
  message: string | null,
  changesOf: (text: Y.Text) => readonly OffsetChange[],
): Promise<string> => {
  let id = ''
  await room.change(proposer.user, (text) => {
    const map = proposalsMap(text, room.textName)
    if (map.size >= MAX_PROPOSALS_PER_ROOM) {
      throw new TooManyProposalsError(
        `the room has ${map.size} proposals waiting, the most it keeps (${MAX_PROPOSALS_PER_ROOM}); accept or reject some first`,
      )
    }
    const proposal = proposalFor(text, proposer, changesOf(text), message)
    id = proposal.id
    map.set(id, proposal)
  })
  return id
}

/**
 * The proposals waiting in `room`, oldest first, with their changes in offsets of the text now
 * and the text each would replace.
 *
 * @example proposalsOf(room).map((p) => p.changes.length)
 */
export const proposalsOf = (room: Room): ListedProposal[] => {
  const text = room.doc.getText(room.textName)
  const content = text.toString()
  const proposals = proposalsIn(room.doc, room.textName)
  const resolved = resolveProposals(text, proposals)
  return proposals.map((proposal, i) => ({
    ...proposal,
    changes: resolved[i]!.map((change) => ({
      ...change,
      replaced: content.slice(change.from, change.to),
    })),
  }))
}

/**
 * Accepts proposal `id` of `room` as `user`: in one change, applies its changes where they are
 * now and removes it, the text attributed to its proposer with `user` as who accepted it.
 * Resolves with what was applied, or null when the room has no such proposal (never made,
 * malformed, or already accepted or rejected).
 *
 * @example await acceptIn(room, 'a1b2c3d4e5f60708', 'ada')
 */
export const acceptIn = (
  room: Room,
  id: string,
  user: string,
  log?: ProgramChangeLog,
): Promise<AcceptedProposal | null> => oneAtATime(room, () => accept(room, id, user, log))

const accept = async (
  room: Room,
  id: string,
  user: string,
  log: ProgramChangeLog | undefined,
): Promise<AcceptedProposal | null> => {
  // The proposer is read before the change; a bounded retry covers an entry rewritten between.
  for (let attempt = 0; attempt < 3; attempt++) {
    const entry = entryOf(room.doc, room.textName, id)
    if (entry === null) return null
    const proposer = await proposerOf(room, entry)
    let applied: ResolvedProposalChange[] | null = null
    let deleted: DeletedText[] = []
    let rewritten = false
    const update = await room.change(
      proposer,
      (text) => {
        const now = entryOf(text.doc!, room.textName, id)
        if (now === null) return
        if (!Y.compareIDs(now.item, entry.item)) {
          rewritten = true
          return
        }
        applied = resolveProposal(text, now.proposal)
        deleted = deletedBy(text, applied)
        applyResolvedChanges(text, applied)
        proposalsMap(text, room.textName).delete(id)
      },
      { acceptedBy: user },
    )
    if (applied !== null) {
      // Accepted, the proposal is the program's change: people may undo it as any other.
      const { inserted } = idsOfUpdate(update)
      if (inserted.size > 0 || deleted.length > 0) {
        log?.record(room.name, {
          user: proposer,
          message: entry.proposal.message,
          inserted,
          deleted,
        })
      }
      return { id, proposer, applied }
    }
    if (!rewritten) return null
  }
  return null
}

/**
 * Rejects proposal `id` of `room` as `user`: removes it and changes no text. Resolves with
 * false when the room has no such proposal.
 *
 * @example await rejectIn(room, 'a1b2c3d4e5f60708', 'ada')
 */
export const rejectIn = (room: Room, id: string, user: string): Promise<boolean> =>
  oneAtATime(room, async () => {
    let found = false
    await room.change(user, (text) => {
      const map = proposalsMap(text, room.textName)
      if (!isProposalId(id) || !map.has(id)) return
      found = true
      map.delete(id)
    })
    return found
  })

/** The accept or reject under way in each room, which the next one waits for. */
const handling = new WeakMap<Room, Promise<unknown>>()

/**
 * Runs `work` once the room's accept or reject before it is done: a change is put in the
 * room's document only once stored, so two accepts of one proposal at once would otherwise both
 * find it waiting and apply it twice.
 */
const oneAtATime = <T>(room: Room, work: () => Promise<T>): Promise<T> => {
  const before = handling.get(room) ?? Promise.resolve()
  const result = before.then(work, work)
  handling.set(
    room,
    result.catch(() => {}),
  )
  return result
}

/** `changes` when a proposal can hold them; throws a `RangeError` saying why not. */
const checkChanges = (changes: readonly OffsetChange[]): readonly OffsetChange[] => {
  if (changes.length === 0) throw new RangeError('a proposal needs at least one change')
  if (changes.length > MAX_PROPOSAL_CHANGES) {
    throw new RangeError(`a proposal holds at most ${MAX_PROPOSAL_CHANGES} changes`)
  }
  let length = 0
  for (const { insert } of changes) length += insert.length
  if (length > MAX_PROPOSAL_TEXT_LENGTH) {
    throw new RangeError(`a proposal inserts at most ${MAX_PROPOSAL_TEXT_LENGTH} characters`)
  }
  return changes
}

const proposalsMap = (text: Y.Text, textName: string): Y.Map<unknown> =>
  text.doc!.getMap(proposalsMapName(textName))

/** A proposal's map entry: the proposal, and the Yjs id of the item that holds it. */
interface Entry {
  readonly proposal: ProposalJSON
  readonly item: Y.ID
}

const entryOf = (doc: Y.Doc, textName: string, id: string): Entry | null => {
  if (!isProposalId(id)) return null
  const map = doc.getMap(proposalsMapName(textName))
  const proposal = readProposal(id, map.get(id))
  // `_map` holds the item that wrote each key's current value: there is no public way to it.
  const item = map._map.get(id)
  return proposal === null || item === undefined || item.deleted
    ? null
    : { proposal, item: item.id }
}

/**
 * Who wrote `entry`, as the server recorded it; the user the entry names when the server has
 * no record, or only knows its writer as nobody in particular.
 */
const proposerOf = async (room: Room, entry: Entry): Promise<string> => {
  const attribution = await room.attribution.current()
  let recorded: string | null = null
  attribution.forEachInserted(entry.item.client, entry.item.clock, 1, (_clock, _length, author) => {
    recorded = author?.user ?? null
  })
  return recorded === null || recorded === ANONYMOUS_AUTHOR ? entry.proposal.user : recorded
}
