/**
 * A document's history as its server keeps it: who wrote each part of the text, and the
 * versions, asked of a `@tandem/server` over its HTTP API with the connection's token. Who
 * wrote what is cached per range and asked again once new updates have had time to be
 * stored; restoring a version happens here, in the editor, as one change by this user:
 * the fewest edits, undoable with the editor's own undo.
 */

import type { TextEditor } from '@tandem/editor'
import type {
  AuthorRunJSON,
  OpenedVersionJSON,
  TextChangeJSON,
  VersionDiffJSON,
  VersionJSON,
} from '@tandem/protocol'
import { type Disposable, Emitter, Range } from '@tandem/text'
import type * as Y from 'yjs'
import { apiBase, requestJson } from './http-api.js'
import { textChanges } from './text-changes.js'

/** A run of the text written by one user, with its buffer range when there is an editor. */
export interface AuthorSpan extends AuthorRunJSON {
  /** The run in buffer coordinates (null without an editor). */
  readonly range: Range | null
}

/** The server refused or failed a history request: its status and its reason. */
export class HistoryError extends Error {
  /** Always `'HistoryError'`. */
  override readonly name = 'HistoryError'

  constructor(
    /** The HTTP status (0 when the server could not be reached). */
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** What a `DocumentHistory` needs to reach the server. */
export interface DocumentHistoryOptions {
  /** The server's WebSocket URL, as given to `connect`. */
  readonly url: string
  /** The room. */
  readonly room: string
  /** The token to send, read at each request (it may be renewed). */
  readonly token: () => string | undefined
  /** The text's name in the document (default `"text"`). */
  readonly textName?: string
  /** How long after the last update the authors are asked again, in ms (default 500). */
  readonly refreshMs?: number
  /** The fetch to use (default the global one). */
  readonly fetch?: typeof fetch
}

interface HistoryEvents {
  'did-change-authors': undefined
}

/**
 * The history of one connected document (`connection.history`).
 *
 * @example const spans = await connection.history.authorsOf([[0, 0], [10, 0]])
 */
export class DocumentHistory {
  private readonly emitter = new Emitter<HistoryEvents>()
  private readonly cache = new Map<string, Promise<AuthorRunJSON[]>>()
  private refreshTimer: ReturnType<typeof setTimeout> | null = null
  private readonly base: string
  private readonly onUpdate = () => this.updated()
  private disposed = false

  constructor(
    private readonly doc: Y.Doc,
    private readonly editor: TextEditor | null,
    private readonly options: DocumentHistoryOptions,
  ) {
    this.base = apiBase(options.url, options.room)
    doc.on('update', this.onUpdate)
  }

  /**
   * Who wrote the text in `range` (a buffer range with an editor, else `{from, to}` offsets;
   * the whole text when omitted) as the server has it: runs of one user and minute, in text
   * order. Cached until new updates arrive.
   *
   * @example await connection.history.authorsOf([[0, 0], [5, 0]])
   */
  async authorsOf(
    range?: Range | [[number, number], [number, number]] | { from: number; to: number },
  ): Promise<AuthorSpan[]> {
    const { from, to } = this.offsetsOf(range)
    const key = `${from}:${to}`
    let runs = this.cache.get(key)
    if (runs === undefined) {
      runs = this.request<{ authors: AuthorRunJSON[] }>(`authors?from=${from}&to=${to}`).then(
        (answer) => answer.authors,
      )
      this.cache.set(key, runs)
      runs.catch(() => this.cache.delete(key))
    }
    const buffer = this.editor?.getBuffer() ?? null
    return (await runs).map((run) => ({
      ...run,
      range:
        buffer === null
          ? null
          : new Range(
              buffer.positionForCharacterIndex(run.from),
              buffer.positionForCharacterIndex(run.to),
            ),
    }))
  }

  /**
   * Calls `callback` when what `authorsOf` answers may have changed: a while after updates
   * (local or remote) arrived, so the server has stored them.
   */
  onDidChangeAuthors(callback: () => void): Disposable {
    return this.emitter.on('did-change-authors', callback)
  }

  /** The document's versions, oldest first. */
  async versions(): Promise<VersionJSON[]> {
    return (await this.request<{ versions: VersionJSON[] }>('versions')).versions
  }

  /**
   * Keeps the text as the server has it now as a version named `name` (needs write access).
   *
   * @example await connection.history.saveVersion('Before the rewrite')
   */
  async saveVersion(name: string): Promise<VersionJSON> {
    if (typeof name !== 'string' || name.trim() === '') {
      throw new TypeError(`a version needs a name, got ${JSON.stringify(name)}`)
    }
    const answer = await this.request<{ version: VersionJSON }>('versions', {
      method: 'POST',
      body: JSON.stringify({ name }),
    })
    return answer.version
  }

  /** A version with its text. */
  async openVersion(id: string): Promise<OpenedVersionJSON> {
    return (await this.request<{ version: OpenedVersionJSON }>(`versions/${checkId(id)}`)).version
  }

  /**
   * What changed from version `from` to version `to` (default `'now'`, the server's text as
   * it is), with who inserted and deleted each part.
   *
   * @example const { runs } = await connection.history.diff(versions[0].id)
   */
  diff(from: string, to = 'now'): Promise<VersionDiffJSON> {
    const target = to === 'now' ? 'now' : checkId(to)
    return this.request<VersionDiffJSON>(`diff?from=${checkId(from)}&to=${target}`)
  }

  /**
   * Makes the text read as version `id` did, as one change by this user: the fewest edits
   * from the text as it is here, so text both have stays (and everyone's carets on it), and
   * one undo takes it back. Resolves with the changes made (offsets in the text before).
   *
   * @example await connection.history.restoreVersion(versions[0].id)
   */
  async restoreVersion(id: string): Promise<TextChangeJSON[]> {
    const version = await this.openVersion(id)
    const textName = this.options.textName ?? 'text'
    const text = this.editor ? this.editor.getText() : this.doc.getText(textName).toString()
    const changes = textChanges(text, version.text)
    if (changes.length === 0) return changes
    if (this.editor !== null) {
      const editor = this.editor
      const buffer = editor.getBuffer()
      editor.transact(() => {
        for (const { from, to, insert } of [...changes].reverse()) {
          const range = new Range(
            buffer.positionForCharacterIndex(from),
            buffer.positionForCharacterIndex(to),
          )
          editor.setTextInBufferRange(range, insert)
        }
      })
    } else {
      const shared = this.doc.getText(textName)
      this.doc.transact(() => {
        for (const { from, to, insert } of [...changes].reverse()) {
          if (to > from) shared.delete(from, to - from)
          if (insert !== '') shared.insert(from, insert)
        }
      })
    }
    return changes
  }

  /** Stops following updates. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.doc.off('update', this.onUpdate)
    if (this.refreshTimer !== null) clearTimeout(this.refreshTimer)
    this.emitter.dispose()
  }

  private updated(): void {
    this.cache.clear()
    if (this.refreshTimer !== null) clearTimeout(this.refreshTimer)
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null
      this.cache.clear()
      this.emitter.emit('did-change-authors', undefined)
    }, this.options.refreshMs ?? 500)
  }

  private offsetsOf(
    range?: Range | [[number, number], [number, number]] | { from: number; to: number },
  ): { from: number; to: number } {
    if (range === undefined) return { from: 0, to: Number.MAX_SAFE_INTEGER }
    if ('from' in range && typeof range.from === 'number') {
      const { from, to } = range as { from: number; to: number }
      if (!(Number.isSafeInteger(from) && Number.isSafeInteger(to) && from >= 0 && to >= from)) {
        throw new RangeError(`authorsOf needs 0 <= from <= to, got ${from} and ${to}`)
      }
      return { from, to }
    }
    if (this.editor === null) throw new TypeError('a buffer range needs an editor; give {from, to}')
    const buffer = this.editor.getBuffer()
    const { start, end } = Range.fromObject(range as Range)
    return {
      from: buffer.characterIndexForPosition(start),
      to: buffer.characterIndexForPosition(end),
    }
  }

  private request<T>(path: string, init: RequestInit = {}): Promise<T> {
    return requestJson<T>(
      {
        base: this.base,
        token: this.options.token(),
        fetch: this.options.fetch,
        error: (status, message) => new HistoryError(status, message),
      },
      path,
      init,
    )
  }
}

const checkId = (id: string): string => {
  if (typeof id !== 'string' || !/^\d{1,15}$/.test(id)) {
    throw new TypeError(`a version id is a string of digits, got ${JSON.stringify(id)}`)
  }
  return id
}
