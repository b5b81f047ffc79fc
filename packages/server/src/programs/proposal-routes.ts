/**
 * The HTTP routes of proposals, under `/api/rooms/<room>`:
 *
 * - `POST changes` with `"propose": true` (write): the changes become a proposal by the caller
 *   instead of a change to the text (positions in the same forms as a change's); answers
 *   `{room, proposal, stateVector}`. `"message"` says what it is for; `"name"` and `"color"`
 *   how people see the program (default: the token's user, no colour).
 * - `GET proposals` (read): `{room, proposals}`, each with its changes in offsets of the text
 *   now and the text each would replace.
 * - `POST proposals/<id>/accept` (write): applies it, attributed to the program that proposed
 *   it and to the caller as who accepted it; answers `{room, proposal, applied, stateVector}`.
 * - `POST proposals/<id>/reject` (write): removes it; answers `{room, proposal, stateVector}`.
 *
 * An `Idempotency-Key` header makes a retried proposal answer again instead of proposing twice,
 * as it does for a change. An unknown proposal (or one already accepted or rejected) is a 404; a room with
 * `MAX_PROPOSALS_PER_ROOM` waiting refuses another with a 409.
 *
 * @module
 */

import * as Y from 'yjs'
import { ANONYMOUS_AUTHOR } from '../history/room-attribution.js'
import type { RoomAccess } from '../history/server-history.js'
import { ApiError, type ApiRequest, type ApiRoute } from '../http-api.js'
import type { ProgramChangeLog } from './change-log.js'
import { parseChanges, resolveChanges } from './change-specs.js'
import { IdempotentResults, isIdempotencyKey } from './idempotency.js'
import {
  acceptIn,
  proposalsOf,
  proposeIn,
  rejectIn,
  TooManyProposalsError,
} from './room-proposals.js'
import { checkMessage } from './server-proposals.js'

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64')

const userOf = ({ authorization }: ApiRequest): string => authorization.user ?? ANONYMOUS_AUTHOR

/**
 * Whether a `POST changes` body asks for a proposal (`"propose": true`) rather than a change.
 *
 * @example if (wantsProposal(body)) return proposeChanges(rooms, request, body)
 */
export const wantsProposal = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && (body as { propose?: unknown }).propose === true

/**
 * Answers a `POST changes` whose body asks for a proposal: writes it into the room as the
 * caller's, changing no text.
 *
 * @example await proposeChanges(rooms, request, { propose: true, changes: [{ from: 0, insert: '# ' }] })
 */
export const proposeChanges = async (
  rooms: RoomAccess,
  request: ApiRequest,
  body: unknown,
): Promise<ProposeAnswer> => {
  const { room, http } = request
  const specs = parseChanges(body)
  const key = http.headers['idempotency-key']
  if (key !== undefined && (typeof key !== 'string' || !isIdempotencyKey(key))) {
    throw new ApiError(400, 'Idempotency-Key must be 1 to 200 printable ASCII characters')
  }
  const { message, name, color } = body as Record<string, unknown>
  const user = userOf(request)
  const proposer = {
    user,
    name: optionalText(name, 'name', 200) ?? user,
    color: optionalText(color, 'color', 64),
  }
  let checkedMessage: string | null
  try {
    checkedMessage = checkMessage(message ?? null)
  } catch (error) {
    throw new ApiError(400, (error as Error).message)
  }
  const propose = () =>
    rooms.withRoom(room, async (opened) => {
      try {
        const id = await proposeIn(opened, proposer, checkedMessage, (text) =>
          resolveChanges(text, specs),
        )
        return { room, proposal: id, stateVector: base64(Y.encodeStateVector(opened.doc)) }
      } catch (error) {
        if (error instanceof TooManyProposalsError) throw new ApiError(409, error.message)
        if (error instanceof RangeError) throw new ApiError(400, error.message)
        throw error
      }
    })
  if (key === undefined) return propose()
  let results = answered.get(rooms)
  if (results === undefined) {
    results = new IdempotentResults<ProposeAnswer>()
    answered.set(rooms, results)
  }
  return results.once(`${room}\u0000${user}\u0000${key}`, propose)
}

/** What proposing answers. */
interface ProposeAnswer {
  readonly room: string
  readonly proposal: string
  readonly stateVector: string
}

/** The proposals made with an `Idempotency-Key`, per server (its rooms), for retries. */
const answered = new WeakMap<RoomAccess, IdempotentResults<ProposeAnswer>>()

/**
 * The routes listing, accepting and rejecting proposals, over `rooms`.
 *
 * @example new HttpApi(proposalRoutes(rooms), access)
 */
export const proposalRoutes = (rooms: RoomAccess, log?: ProgramChangeLog): ApiRoute[] => [
  {
    method: 'GET',
    pattern: /^proposals$/,
    role: 'read',
    handle: ({ room }) =>
      rooms.withRoom(room, async (opened) => ({ room, proposals: proposalsOf(opened) })),
  },
  {
    method: 'POST',
    pattern: /^proposals\/([^/]*)\/(accept|reject)$/,
    role: 'write',
    handle: (request) => {
      const { room, params } = request
      const id = params[0] ?? ''
      const user = userOf(request)
      return rooms.withRoom(room, async (opened) => {
        const stateVector = () => base64(Y.encodeStateVector(opened.doc))
        if (params[1] === 'accept') {
          const accepted = await acceptIn(opened, id, user, log)
          if (accepted === null) throw notFound(room, id)
          return { room, proposal: id, applied: accepted.applied, stateVector: stateVector() }
        }
        if (!(await rejectIn(opened, id, user))) throw notFound(room, id)
        return { room, proposal: id, stateVector: stateVector() }
      })
    },
  },
]

const notFound = (room: string, id: string): ApiError =>
  new ApiError(
    404,
    `the room ${JSON.stringify(room)} has no proposal ${JSON.stringify(id.slice(0, 64))}: it was never made, or was accepted or rejected already`,
  )

/** `value` when absent (undefined or null) or text of 1 to `max` characters; else a 400. */
const optionalText = (value: unknown, what: string, max: number): string | null => {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new ApiError(400, `${what} must be text of 1 to ${max} characters`)
  }
  return value
}
