/**
 * The history's HTTP routes, under `/api/rooms/<room>/`:
 *
 * - `GET authors?from=&to=`: who wrote each part of the text (read).
 * - `GET versions`: the versions, oldest first (read).
 * - `POST versions` with `{"name": "…"}`: keep the text as it is as a named version (write).
 * - `GET versions/<id>`: a version with its text (read).
 * - `GET diff?from=<id>&to=<id>|now`: what changed between two versions, or since one (read).
 * - `POST versions/<id>/restore`: make the text read as the version did, as a change by the
 *   caller (write).
 *
 * @module
 */
import { ApiError, type ApiRequest, type ApiRoute, queryOffset } from '../http-api.js'
import { ANONYMOUS_AUTHOR } from './room-attribution.js'
import { NOW } from './room-versions.js'
import type { ServerHistory } from './server-history.js'

/** Version ids as stores give them, or `now` where the text as it is will do. */
const VERSION_ID = /^\d{1,15}$/

const userOf = ({ authorization }: ApiRequest): string => authorization.user ?? ANONYMOUS_AUTHOR

const versionParameter = (query: URLSearchParams, name: string, allowNow: boolean): string => {
  const value = query.get(name)
  if (value !== null && (VERSION_ID.test(value) || (allowNow && value === NOW))) return value
  throw new ApiError(
    400,
    `${name} must be a version id${allowNow ? ' or "now"' : ''}, got ${JSON.stringify(value?.slice(0, 40) ?? null)}`,
  )
}

const notFound = (room: string, id: string): ApiError =>
  new ApiError(404, `the room ${JSON.stringify(room)} has no version ${JSON.stringify(id)}`)

/**
 * The history's routes over `history`.
 *
 * @example new HttpApi(historyRoutes(server.history), access)
 */
export const historyRoutes = (history: ServerHistory): ApiRoute[] => [
  {
    method: 'GET',
    pattern: /^authors$/,
    role: 'read',
    async handle({ room, query }) {
      const from = queryOffset(query, 'from', 0)
      const to = queryOffset(query, 'to', Number.MAX_SAFE_INTEGER)
      const authors = await history.authorsOf(room, from, Math.max(from, to))
      return { room, from, authors }
    },
  },
  {
    method: 'GET',
    pattern: /^versions$/,
    role: 'read',
    async handle({ room }) {
      return { room, versions: await history.versions(room) }
    },
  },
  {
    method: 'POST',
    pattern: /^versions$/,
    role: 'write',
    maxBodyBytes: 64 * 1024,
    async handle(request) {
      const body = await request.json()
      const name = (body as { name?: unknown } | null)?.name
      if (typeof name !== 'string') throw new ApiError(400, 'the body must be {"name": "…"}')
      try {
        return {
          room: request.room,
          version: await history.saveVersion(request.room, name, userOf(request)),
        }
      } catch (error) {
        if (error instanceof TypeError) throw new ApiError(400, error.message)
        throw error
      }
    },
  },
  {
    method: 'GET',
    pattern: /^versions\/(\d{1,15})$/,
    role: 'read',
    async handle({ room, params }) {
      const version = await history.openVersion(room, params[0]!)
      if (version === null) throw notFound(room, params[0]!)
      return { room, version }
    },
  },
  {
    method: 'GET',
    pattern: /^diff$/,
    role: 'read',
    async handle({ room, query }) {
      const from = versionParameter(query, 'from', false)
      const to = versionParameter(query, 'to', true)
      const diff = await history.diff(room, from, to)
      if (diff === null) throw notFound(room, `${from} or ${to}`)
      return { room, from, to, ...diff }
    },
  },
  {
    method: 'POST',
    pattern: /^versions\/(\d{1,15})\/restore$/,
    role: 'write',
    maxBodyBytes: 1024,
    async handle(request) {
      const restored = await history.restoreVersion(
        request.room,
        request.params[0]!,
        userOf(request),
      )
      if (restored === null) throw notFound(request.room, request.params[0]!)
      return { room: request.room, ...restored }
    },
  },
]
