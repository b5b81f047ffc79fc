/**
 * The HTTP routes programs use to read and change a room's text, under `/api/rooms/<room>`:
 *
 * - `GET` (read): `{room, text, length, stateVector}`; with `?version=<id>`, a version's text
 *   instead; with `?anchors=0,15`, a relative position for each offset, to name those places
 *   in a later change however the text changes meanwhile.
 * - `POST changes` (write), body `{"changes": [{"from", "to", "insert"}, ...]}`: applies the
 *   changes as one change by the caller, stored before it reaches anyone; answers what was
 *   applied and the new state vector (and the new text with `?text=1`). An `Idempotency-Key`
 *   header makes a retried request answer again instead of changing the text twice. The body
 *   may carry a `selection` and a `message` (see change-notes.ts); the change is logged as a
 *   program's (see change-log.ts) and the answer names it, `"change": "<id>"`.
 *
 * @module
 */
import { relativePositionsAt, relativePositionToJSON } from '@tandem/protocol'
import * as Y from 'yjs'
import { ANONYMOUS_AUTHOR } from '../history/room-attribution.js'
import type { RoomAccess } from '../history/server-history.js'
import { ApiError, type ApiRequest, type ApiRoute } from '../http-api.js'
import { parseChangeNotes } from './change-notes.js'
import { applyChanges, parseChanges, type ResolvedChange, resolveChanges } from './change-specs.js'
import { IdempotentResults, isIdempotencyKey } from './idempotency.js'
import { proposeChanges, wantsProposal } from './proposal-routes.js'
import { recordProgramChange } from './record-change.js'
import type { ServerPrograms } from './server-programs.js'

/** The most anchors one request may ask for. */
export const MAX_ANCHORS = 1_000

/** What `POST changes` answers. */
export interface ChangesAnswer {
  /** The room changed. */
  readonly room: string
  /** The changes made, in offsets of the text before them, sorted. */
  readonly applied: readonly ResolvedChange[]
  /** The text's length after them. */
  readonly length: number
  /** The room document's state vector after them (Yjs encoding, base64). */
  readonly stateVector: string
  /** The text as it is once they are made (others' changes too), asked for with `?text=1`. */
  readonly text?: string
  /** The change's id in the room's change log, for its undo; null when nothing changed. */
  readonly change?: string | null
}

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64')

const userOf = ({ authorization }: ApiRequest): string => authorization.user ?? ANONYMOUS_AUTHOR

/**
 * The routes over `rooms`.
 *
 * @example new HttpApi(documentRoutes(rooms, server.programs), access)
 */
export const documentRoutes = (rooms: RoomAccess, programs: ServerPrograms): ApiRoute[] => {
  const done = new IdempotentResults<ChangesAnswer>(undefined, undefined, answerBytes)
  return [
    {
      method: 'GET',
      pattern: /^$/,
      role: 'read',
      handle: ({ room, query }) =>
        rooms.withRoom(room, async (opened) => {
          const version = query.get('version')
          if (version !== null) {
            const found = /^\d{1,15}$/.test(version) ? await opened.versions.open(version) : null
            if (found === null)
              throw new ApiError(
                404,
                `the room has no version ${JSON.stringify(version.slice(0, 40))}`,
              )
            return { room, version: version, text: found.text, length: found.text.length }
          }
          const text = opened.doc.getText(opened.textName)
          const content = text.toString()
          const answer: Record<string, unknown> = {
            room,
            text: content,
            length: content.length,
            stateVector: base64(Y.encodeStateVector(opened.doc)),
          }
          const anchors = query.get('anchors')
          if (anchors !== null) answer.anchors = anchorsOf(text, content.length, anchors)
          return answer
        }),
    },
    {
      method: 'POST',
      pattern: /^changes$/,
      role: 'write',
      maxBodyBytes: 8 * 1024 * 1024,
      async handle(request) {
        const { room, query, http } = request
        const body = await request.json()
        if (wantsProposal(body)) return proposeChanges(rooms, request, body)
        const specs = parseChanges(body)
        const notes = parseChangeNotes(body)
        const key = http.headers['idempotency-key']
        if (key !== undefined && (typeof key !== 'string' || !isIdempotencyKey(key))) {
          throw new ApiError(400, 'Idempotency-Key must be 1 to 200 printable ASCII characters')
        }
        const apply = () =>
          rooms.withRoom(room, async (opened) => {
            let applied: ResolvedChange[] = []
            const record = recordProgramChange(programs, opened, userOf(request), notes)
            const update = await opened.change(userOf(request), (text) => {
              // Read once: resolving the changes and keeping what they delete both need it.
              const content = text.toString()
              applied = resolveChanges(text, specs, content)
              record.before(text, applied, content)
              applyChanges(text, applied)
              record.after(text)
            })
            return {
              room,
              change: await record.done(update),
              applied,
              length: opened.doc.getText(opened.textName).length,
              stateVector: base64(Y.encodeStateVector(opened.doc)),
            }
          })
        // Kept answers hold no text, so that what a day of keys keeps stays small.
        const answer =
          key === undefined
            ? await apply()
            : await done.once(`${room}\u0000${userOf(request)}\u0000${key}`, apply)
        if (query.get('text') !== '1') return answer
        return rooms.withRoom(room, async (opened) => ({
          ...answer,
          text: opened.doc.getText(opened.textName).toString(),
        }))
      },
    },
  ]
}

/** Roughly the bytes `answer` holds, for the bound on kept answers. */
const answerBytes = (answer: ChangesAnswer): number =>
  256 + answer.applied.reduce((sum, { insert }) => sum + 32 + insert.length * 2, 0)

/**
 * Relative positions for the offsets listed in `list` ("0,15,42"), keyed by offset, made in one
 * walk of the text however many are asked.
 */
const anchorsOf = (text: Y.Text, length: number, list: string): Record<string, unknown> => {
  const offsets = list.split(',')
  if (offsets.length > MAX_ANCHORS) throw new ApiError(400, `at most ${MAX_ANCHORS} anchors`)
  for (const item of offsets) {
    if (!/^\d{1,15}$/.test(item) || Number(item) > length) {
      throw new ApiError(
        400,
        `anchors must be offsets in the text (0 to ${length}), got ${JSON.stringify(item.slice(0, 20))}`,
      )
    }
  }
  const positions = relativePositionsAt(text, offsets.map(Number))
  const anchors: Record<string, unknown> = {}
  offsets.forEach((item, i) => {
    anchors[item] = relativePositionToJSON(positions[i]!)
  })
  return anchors
}
