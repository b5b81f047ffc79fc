/**
 * Proposals in every room, for programs in the same process (`server.proposals`): list them,
 * propose, accept and reject, as the HTTP routes do. Each call loads the room if it is not in
 * memory and lets it go again, so it works for any stored room, on any instance.
 *
 * @module
 */

import { MAX_PROPOSAL_MESSAGE_LENGTH } from '@tandem/protocol'
import type { RoomAccess } from '../history/server-history.js'
import { checkAuthor, checkRoom } from '../storage/document-store.js'
import type { ProgramChangeLog } from './change-log.js'
import {
  type AcceptedProposal,
  acceptIn,
  type ListedProposal,
  type OffsetChange,
  type Proposer,
  proposalsOf,
  proposeIn,
  rejectIn,
} from './room-proposals.js'

/** Options of `ServerProposals.propose`. */
export interface ProposeOptions {
  /** What the program says of it, at most `MAX_PROPOSAL_MESSAGE_LENGTH` units (default none). */
  readonly message?: string | null
}

/**
 * The proposals of every room (`server.proposals`).
 *
 * @example const waiting = await server.proposals.list('notes')
 */
export class ServerProposals {
  /** @internal Made by the server, with its rooms and the log of programs' changes. */
  constructor(
    private readonly rooms: RoomAccess,
    /** Where accepted proposals are logged as their programs' changes, to undo like any. */
    private readonly log?: ProgramChangeLog,
  ) {}

  /**
   * The proposals waiting in `room`, oldest first, each change in offsets of the text now with
   * the text it would replace.
   *
   * @example (await server.proposals.list('notes')).map((p) => p.name)
   */
  list(room: string): Promise<ListedProposal[]> {
    checkRoom(room)
    return this.rooms.withRoom(room, async (opened) => proposalsOf(opened))
  }

  /**
   * Proposes `changes` (offsets of `room`'s text as it is now; they must not overlap) as
   * `proposer`, instead of making them. Resolves with the proposal's id once it is stored.
   * Throws a `RangeError` for offsets outside the text and a `TooManyProposalsError` when the
   * room has `MAX_PROPOSALS_PER_ROOM` waiting.
   *
   * @example await server.proposals.propose('notes', { user: 'fixer' }, [{ from: 0, to: 4, insert: 'Tandem' }])
   */
  propose(
    room: string,
    proposer: Proposer,
    changes: readonly OffsetChange[],
    options: ProposeOptions = {},
  ): Promise<string> {
    checkRoom(room)
    checkAuthor({ user: proposer?.user, time: 0 })
    const message = checkMessage(options.message ?? null)
    return this.rooms.withRoom(room, (opened) =>
      proposeIn(opened, proposer, message, () => checkedChanges(changes)),
    )
  }

  /**
   * Accepts proposal `id` of `room` as `user`: applies it where its text is now and removes it,
   * in one change attributed to the program that proposed it, accepted by `user`. Resolves with
   * what was applied, or null when the room has no such proposal (or it was handled already).
   *
   * @example await server.proposals.accept('notes', id, 'ada')
   */
  accept(room: string, id: string, user: string): Promise<AcceptedProposal | null> {
    checkRoom(room)
    checkAuthor({ user, time: 0 })
    return this.rooms.withRoom(room, (opened) => acceptIn(opened, id, user, this.log))
  }

  /**
   * Rejects proposal `id` of `room` as `user`: removes it, changing no text. Resolves with false
   * when the room has no such proposal.
   *
   * @example await server.proposals.reject('notes', id, 'ada')
   */
  reject(room: string, id: string, user: string): Promise<boolean> {
    checkRoom(room)
    checkAuthor({ user, time: 0 })
    return this.rooms.withRoom(room, (opened) => rejectIn(opened, id, user))
  }
}

/** `message` when it can be a proposal's; throws a `RangeError` otherwise. */
export const checkMessage = (message: unknown): string | null => {
  if (message === null) return null
  if (typeof message !== 'string' || message.length > MAX_PROPOSAL_MESSAGE_LENGTH) {
    throw new RangeError(
      `a proposal's message must be text of at most ${MAX_PROPOSAL_MESSAGE_LENGTH} characters`,
    )
  }
  return message
}

/** `changes` sorted, when none overlaps another; throws a `RangeError` otherwise. */
export const checkedChanges = (changes: readonly OffsetChange[]): OffsetChange[] => {
  const sorted = [...changes].sort((a, b) => a.from - b.from || a.to - b.to)
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.from < sorted[i - 1]!.to) throw new RangeError('changes must not overlap')
  }
  return sorted
}
