/**
 * The request that opens a connection, read and refused: the room its URL path names (by the
 * store's own rule), and a plain HTTP answer when it may not upgrade, with the cause the
 * metrics count it under.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { LimitRefusal } from './connection-limits.js'
import type { RefusalCause } from './server-metrics.js'
import { AuthRefusal } from './server-options.js'
import { checkRoom } from './storage/document-store.js'

/** A refusal that is not about auth: a bad URL, a failure of the server. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {}
}

/** The reason phrase of each HTTP status a refusal answers with. */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

/** The `reason` label a refusal is counted under. */
export const causeOf = (refusal: AuthRefusal | Refusal | LimitRefusal): RefusalCause => {
  if (!(refusal instanceof AuthRefusal || refusal instanceof Refusal)) return refusal.cause
  const byStatus: Record<number, RefusalCause> = {
    400: 'bad_request',
    401: 'unauthorized',
    403: 'forbidden',
    503: 'shutting_down',
  }
  return byStatus[refusal.status] ?? 'error'
}

/** The path of a request's URL, or null when the URL does not parse. */
export const pathOf = (request: IncomingMessage): string | null => {
  try {
    return new URL(request.url ?? '/', 'http://localhost').pathname
  } catch {
    return null
  }
}

/** Answers an upgrade request on `socket` with a plain HTTP refusal, then closes it. */
export const refuseUpgrade = (socket: Duplex, status: number, reason: string): void => {
  const body = Buffer.from(reason)
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${reason}`,
  )
}

/**
 * The room a request's path names after `prefix` (URL-decoded), or why it names none: the
 * store's own rule (`checkRoom`) decides, so a name refused here is one no store would take.
 */
export const roomOf = (
  request: IncomingMessage,
  prefix: string,
): { room: string } | { reason: string } => {
  const path = pathOf(request)
  if (path === null || !path.startsWith(prefix) || path.length === prefix.length) {
    return { reason: `the URL path must name a room: ${prefix}<room>` }
  }
  let room: string
  try {
    room = decodeURIComponent(path.slice(prefix.length))
  } catch {
    return { reason: 'the room name in the URL path is not valid percent-encoding' }
  }
  try {
    checkRoom(room)
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) }
  }
  return { room }
}
