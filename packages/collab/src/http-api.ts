/**
 * Requests to a `@tandem/server`'s HTTP API for one room, sent with the connection's token:
 * JSON in, JSON out, and a refusal turned into an error carrying the server's status and
 * reason.
 */

/** What a request to the API needs. */
export interface ApiRequest {
  /** `http(s)://host/api/rooms/<room>/`, from `apiBase`. */
  readonly base: string
  /** The token to send, if any (read at each request: it may be renewed). */
  readonly token: string | undefined
  /** The fetch to use (default the global one). */
  readonly fetch?: typeof fetch
  /** Makes the error thrown for a failed request: its HTTP status (0: unreachable) and reason. */
  readonly error: (status: number, message: string) => Error
}

/**
 * `http(s)://host/api/rooms/<room>/` for a server at `ws(s)://host/…`.
 *
 * @example apiBase('wss://example.com/ws', 'notes') // => 'https://example.com/api/rooms/notes/'
 */
export const apiBase = (url: string, room: string): string => {
  const parsed = new URL(url)
  const protocol = parsed.protocol === 'wss:' ? 'https:' : 'http:'
  return `${protocol}//${parsed.host}/api/rooms/${encodeURIComponent(room)}/`
}

/**
 * Sends `init` to `path` under the room's base and resolves with the JSON answer; rejects
 * with `request.error(status, reason)` when the server cannot be reached, answers without
 * JSON, or refuses (its `error` field is the reason).
 *
 * @example await requestJson(request, 'versions', { method: 'POST', body: '{"name":"v1"}' })
 */
export const requestJson = async <T>(
  request: ApiRequest,
  path: string,
  init: RequestInit = {},
): Promise<T> => {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`
  if (init.body !== undefined) headers['content-type'] = 'application/json'
  let response: Response
  try {
    response = await (request.fetch ?? fetch)(`${request.base}${path}`, { ...init, headers })
  } catch (error) {
    throw request.error(0, `could not reach the server: ${(error as Error).message}`)
  }
  let body: unknown
  try {
    body = await response.json()
  } catch {
    throw request.error(response.status, `the server answered ${response.status} without JSON`)
  }
  if (!response.ok) {
    const reason = (body as { error?: unknown } | null)?.error
    throw request.error(
      response.status,
      typeof reason === 'string' ? reason : `status ${response.status}`,
    )
  }
  return body as T
}
