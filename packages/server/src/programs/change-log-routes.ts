/**
 * The HTTP routes over the log of program changes, under `/api/rooms/<room>`:
 *
 * - `GET changes` (read): `{room, changes: [{id, user, message, time, undone, undoneBy,
 *   inserted, deleted, restorable}, ...]}`, newest first.
 * - `POST changes/<id>/undo` (write): undoes that change as a change by the caller; answers
 *   `{room, change, removed, restored}` (404 when the log does not hold it, 409 when it was
 *   undone already).
 * - `POST agents/<user>/undo` (write): undoes that program's last change nobody undid; the
 *   user is percent-encoded (404 when there is none).
 *
 * @module
 */
import { ANONYMOUS_AUTHOR } from '../history/room-attribution.js'
import { ApiError, type ApiRequest, type ApiRoute } from '../http-api.js'
import { ProgramChangeError, type ServerPrograms } from './server-programs.js'
import type { UndoneChange } from './undo-change.js'

const userOf = ({ authorization }: ApiRequest): string => authorization.user ?? ANONYMOUS_AUTHOR

const refusal = (error: unknown): unknown =>
  error instanceof ProgramChangeError
    ? new ApiError(error.reason === 'unknown' ? 404 : 409, error.message)
    : error

const answer = (room: string, undone: UndoneChange) => ({ room, ...undone })

/**
 * The routes over `programs`.
 *
 * @example new HttpApi(changeLogRoutes(server.programs), access)
 */
export const changeLogRoutes = (programs: ServerPrograms): ApiRoute[] => [
  {
    method: 'GET',
    pattern: /^changes$/,
    role: 'read',
    handle: async ({ room }) => ({ room, changes: await programs.changes(room) }),
  },
  {
    method: 'POST',
    pattern: /^changes\/([0-9a-f-]{1,64})\/undo$/,
    role: 'write',
    async handle(request) {
      const id = request.params[0]!
      try {
        return answer(request.room, await programs.undo(request.room, id, userOf(request)))
      } catch (error) {
        throw refusal(error)
      }
    },
  },
  {
    method: 'POST',
    pattern: /^agents\/([^/]{1,800})\/undo$/,
    role: 'write',
    async handle(request) {
      let program: string
      try {
        program = decodeURIComponent(request.params[0]!)
      } catch {
        throw new ApiError(400, 'the program user in the path is not valid percent-encoding')
      }
      let undone: UndoneChange | null
      try {
        undone = await programs.undoLast(request.room, program, userOf(request))
      } catch (error) {
        throw refusal(error)
      }
      if (undone === null) {
        throw new ApiError(
          404,
          `${JSON.stringify(program.slice(0, 100))} has no change here left to undo`,
        )
      }
      return answer(request.room, undone)
    },
  },
]
