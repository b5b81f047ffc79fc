/**
 * The history's HTTP routes: who wrote what (`GET /api/rooms/<room>/authors?from=&to=`).
 *
 * @module
 */
import { type ApiRoute, queryOffset } from '../http-api.js'
import type { AuthorRun } from './text-authors.js'

/** What the history's routes need of the server. */
export interface HistoryHost {
  /** Who inserted the text of `room` from `from` to `to` as it reads now. */
  authorsOf(room: string, from: number, to: number): Promise<AuthorRun[]>
}

/**
 * The history's routes over `host`.
 *
 * @example new HttpApi([...historyRoutes(server)], access)
 */
export const historyRoutes = (host: HistoryHost): ApiRoute[] => [
  {
    method: 'GET',
    pattern: /^authors$/,
    role: 'read',
    async handle({ room, query }) {
      const from = queryOffset(query, 'from', 0)
      const to = queryOffset(query, 'to', Number.MAX_SAFE_INTEGER)
      const authors = await host.authorsOf(room, from, Math.max(from, to))
      return { room, from, authors }
    },
  },
]
