/**
 * The server's HTTP API for programs: JSON over `/api/rooms/<room>/…`, behind the same
 * `authorize` hook (and so the same tokens) as WebSocket connections. A room is one path
 * segment, percent-encoded (`/api/rooms/team%2Fnotes/authors`), so a room name can hold a
 * slash and still be told from the action after it.
 *
 * Every answer is JSON: the result with status 200, or `{"error": "…"}` with the status
 * that says why (400 bad input, 401/403 refused, 404 no such route, 405 wrong method, 413 a
 * body too large, 500 the server failed).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Role } from './peer.js'
import { API_REQUEST_BURST, API_REQUESTS_PER_SECOND, TokenBucket } from './rate-limit.js'
import { checkRoom } from './storage/document-store.js'

/** Where the API's routes start. */
export const API_PREFIX = '/api/rooms/'

/** Addresses whose request rate is followed at once; the least recently seen are forgotten. */
const MAX_TRACKED_ADDRESSES = 10_000

/** The largest request body the API reads, in bytes, unless a route says otherwise. */
export const MAX_API_BODY_BYTES = 1024 * 1024

/** A failure the caller caused or may retry, answered with `status` and `message`. */
export class ApiError extends Error {
  /** Always `'ApiError'`. */
  override readonly name = 'ApiError'

  constructor(
    /** The HTTP status to answer with. */
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** What a request may do in its room, as the server's admission decided. */
export interface ApiAuthorization {
  /** `write` may change the document, `read` only read it. */
  readonly role: Role
  /** The user's id, when the token (or hook) names one. */
  readonly user?: string
}

/** A request the API routed: its room, what the caller may do there, and its parts. */
export interface ApiRequest {
  /** The room, decoded. */
  readonly room: string
  /** What the caller's token (or `authorize` hook) allows in the room. */
  readonly authorization: ApiAuthorization
  /** The URL's query parameters. */
  readonly query: URLSearchParams
  /** The path's parts after the room that the route's pattern captured. */
  readonly params: readonly string[]
  /** The raw request, for headers. */
  readonly http: IncomingMessage
  /** Reads the body as JSON (at most the route's byte limit); throws an `ApiError` on bad input. */
  json(): Promise<unknown>
}

/** One route of the API. */
export interface ApiRoute {
  /** The HTTP method it answers. */
  readonly method: 'GET' | 'POST'
  /** The path after the room (without its slash): `''` for the room itself, `'authors'`, … */
  readonly pattern: RegExp
  /** The role it needs: `read` (any connection's) or `write`. */
  readonly role: 'read' | 'write'
  /** The largest body it reads (default `MAX_API_BODY_BYTES`). */
  readonly maxBodyBytes?: number
  /** Answers with a value to send as JSON, or throws an `ApiError`. */
  handle(request: ApiRequest): Promise<unknown>
}

/** How the API asks whether a request may use a room: the server's own admission. */
export type ApiAccess = (
  request: IncomingMessage,
  room: string,
) => Promise<{ authorization: ApiAuthorization } | { refusal: { status: number; reason: string } }>

/**
 * Routes API requests to their handlers, after admission.
 *
 * @example const api = new HttpApi(historyRoutes(server.history), access); if (api.handles(path)) await api.answer(req, res)
 */
export class HttpApi {
  private readonly buckets = new Map<string, TokenBucket>()

  constructor(
    private readonly routes: readonly ApiRoute[],
    private readonly access: ApiAccess,
    /** Told of failures that are the server's, not the caller's. */
    private readonly failed: (error: unknown) => void = () => {},
    /** The client address of a request (the server's own rule, proxies included). */
    private readonly addressOf: (request: IncomingMessage) => string = (request) =>
      request.socket.remoteAddress ?? '',
    /** Requests one address may make, per second and in a burst; past them it gets 429. */
    private readonly rate: { readonly perSecond: number; readonly burst: number } = {
      perSecond: API_REQUESTS_PER_SECOND,
      burst: API_REQUEST_BURST,
    },
  ) {}

  /** Whether `path` is the API's to answer. */
  handles(path: string | null): boolean {
    return path?.startsWith(API_PREFIX) === true
  }

  /** Answers `request`, whose path `handles` took. Never rejects. */
  async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      if (!this.admit(this.addressOf(request))) {
        throw new ApiError(429, 'too many requests from this address; slow down')
      }
      const url = new URL(request.url ?? '/', 'http://localhost')
      const [encodedRoom = '', ...rest] = url.pathname.slice(API_PREFIX.length).split('/')
      const room = decodeRoom(encodedRoom)
      const action = rest.join('/')
      const matching = this.routes.filter((route) => route.pattern.test(action))
      if (matching.length === 0) {
        throw new ApiError(404, `no such API route: ${url.pathname.slice(0, 200)}`)
      }
      const route = matching.find((r) => r.method === request.method)
      if (route === undefined) {
        response.setHeader('allow', [...new Set(matching.map((r) => r.method))].join(', '))
        throw new ApiError(405, `${request.method} is not allowed here`)
      }
      const admitted = await this.access(request, room)
      if ('refusal' in admitted)
        throw new ApiError(admitted.refusal.status, admitted.refusal.reason)
      const { authorization } = admitted
      if (route.role === 'write' && authorization.role !== 'write') {
        throw new ApiError(403, 'this needs a token with the write role')
      }
      const params = route.pattern.exec(action)?.slice(1) ?? []
      const maxBytes = route.maxBodyBytes ?? MAX_API_BODY_BYTES
      const result = await route.handle({
        room,
        authorization,
        query: url.searchParams,
        params,
        http: request,
        json: () => readJson(request, maxBytes),
      })
      send(response, 200, result)
    } catch (error) {
      if (error instanceof ApiError) {
        send(response, error.status, { error: error.message })
      } else {
        this.failed(error)
        send(response, 500, { error: 'the server failed to answer' })
      }
    }
  }

  /** Whether `address` may make one more request now (a bucket per address, the oldest forgotten). */
  private admit(address: string): boolean {
    let bucket = this.buckets.get(address)
    if (bucket === undefined) {
      bucket = new TokenBucket(this.rate.perSecond, this.rate.burst)
      if (this.buckets.size >= MAX_TRACKED_ADDRESSES) {
        this.buckets.delete(this.buckets.keys().next().value as string)
      }
    } else {
      this.buckets.delete(address)
    }
    this.buckets.set(address, bucket)
    return bucket.take(1)
  }
}

/**
 * Reads a query parameter as a whole number of at least 0, or `fallback` when absent; throws
 * an `ApiError` (400) naming it otherwise.
 *
 * @example const from = queryOffset(query, 'from', 0)
 */
export const queryOffset = (query: URLSearchParams, name: string, fallback: number): number => {
  const value = query.get(name)
  if (value === null || value === '') return fallback
  const number = Number(value)
  if (!(/^\d+$/.test(value) && Number.isSafeInteger(number))) {
    throw new ApiError(
      400,
      `${name} must be a whole number of at least 0, got ${JSON.stringify(value.slice(0, 40))}`,
    )
  }
  return number
}

const decodeRoom = (encoded: string): string => {
  let room: string
  try {
    room = decodeURIComponent(encoded)
  } catch {
    throw new ApiError(400, 'the room name in the URL path is not valid percent-encoding')
  }
  try {
    checkRoom(room)
  } catch (error) {
    throw new ApiError(400, (error as Error).message)
  }
  return room
}

const send = (response: ServerResponse, status: number, body: unknown): void => {
  if (response.headersSent) {
    response.end()
    return
  }
  response
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    })
    .end(JSON.stringify(body))
}

/** The request's body as JSON, read up to `maxBytes`. */
const readJson = async (request: IncomingMessage, maxBytes: number): Promise<unknown> => {
  const declared = Number(request.headers['content-length'])
  if (declared > maxBytes) throw new ApiError(413, `the body may be at most ${maxBytes} bytes`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) {
      request.destroy()
      throw new ApiError(413, `the body may be at most ${maxBytes} bytes`)
    }
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError(400, 'the body is not JSON')
  }
}
