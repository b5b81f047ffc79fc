/**
 * The changes programs made in a document, as its `@tandem/server` logs them, and undoing
 * them, over the server's HTTP API with the connection's token. An undo happens on the
 * server, as a forward change by this user: what the program inserted and is still there
 * goes, what it deleted comes back where it was, and everyone's own typing stays. It reaches
 * this editor as a remote change, so this user's own undo does not take it back.
 */

import type { ProgramChangeJSON, UndoneChangeJSON } from '@tandem/protocol'
import { HistoryError } from './document-history.js'

/** What a `ProgramChanges` needs to reach the server. */
export interface ProgramChangesOptions {
  /** The server's WebSocket URL, as given to `connect`. */
  readonly url: string
  /** The room. */
  readonly room: string
  /** The token to send, read at each request (it may be renewed). */
  readonly token: () => string | undefined
  /** The fetch to use (default the global one). */
  readonly fetch?: typeof fetch
}

/**
 * The program changes of one connected document (`connection.programs`). Requests that fail
 * reject with a `HistoryError` carrying the server's status and reason.
 *
 * @example const [last] = await connection.programs.changes(); await connection.programs.undo(last.id)
 */
export class ProgramChanges {
  private readonly base: string

  constructor(private readonly options: ProgramChangesOptions) {
    const parsed = new URL(options.url)
    const protocol = parsed.protocol === 'wss:' ? 'https:' : 'http:'
    this.base = `${protocol}//${parsed.host}/api/rooms/${encodeURIComponent(options.room)}/`
  }

  /** The program changes the server keeps for the document, newest first. */
  async changes(): Promise<ProgramChangeJSON[]> {
    return (await this.request<{ changes: ProgramChangeJSON[] }>('changes')).changes
  }

  /**
   * Undoes the program change `id` as a change by this user (needs write access).
   *
   * @example await connection.programs.undo(changeId)
   */
  undo(id: string): Promise<UndoneChangeJSON> {
    if (typeof id !== 'string' || !/^[0-9a-f-]{1,64}$/.test(id)) {
      throw new TypeError(
        `a change id is a string of hex digits and dashes, got ${JSON.stringify(id)}`,
      )
    }
    return this.request<UndoneChangeJSON>(`changes/${id}/undo`, { method: 'POST' })
  }

  /**
   * Undoes the last change of the program `user` that nobody undid, as a change by this user;
   * rejects with status 404 when there is none.
   *
   * @example await connection.programs.undoLast('formatter-bot')
   */
  undoLast(user: string): Promise<UndoneChangeJSON> {
    if (typeof user !== 'string' || user === '') {
      throw new TypeError(`a program is named by its user id, got ${JSON.stringify(user)}`)
    }
    return this.request<UndoneChangeJSON>(`agents/${encodeURIComponent(user)}/undo`, {
      method: 'POST',
    })
  }

  private async request<T>(path: string, init: RequestInit = {}): Promise<T> {
    const token = this.options.token()
    const headers: Record<string, string> = { accept: 'application/json' }
    if (token !== undefined) headers.authorization = `Bearer ${token}`
    let response: Response
    try {
      response = await (this.options.fetch ?? fetch)(`${this.base}${path}`, { ...init, headers })
    } catch (error) {
      throw new HistoryError(0, `could not reach the server: ${(error as Error).message}`)
    }
    let body: unknown
    try {
      body = await response.json()
    } catch {
      throw new HistoryError(response.status, `the server answered ${response.status} without JSON`)
    }
    if (!response.ok) {
      const reason = (body as { error?: unknown } | null)?.error
      throw new HistoryError(
        response.status,
        typeof reason === 'string' ? reason : `status ${response.status}`,
      )
    }
    return body as T
  }
}
