/**
 * The proposals on a connected document (`connection.proposals`): changes programs suggest
 * instead of making, read from the synced document as they are now (their places move with
 * everyone's typing), accepted or rejected through the server's HTTP API with the
 * connection's token, and made by a program that connected with `connect`.
 *
 * The server accepts: it applies the proposal as the program's text and records who accepted
 * it, so a client never has to be trusted to apply what it was shown. Proposing is a write to
 * the document like any other, refused by the server for a read-only connection.
 */
import type { TextEditor } from '@tandem/editor'
import {
  isProposalId,
  MAX_PROPOSAL_CHANGES,
  MAX_PROPOSAL_MESSAGE_LENGTH,
  MAX_PROPOSAL_TEXT_LENGTH,
  newProposalId,
  type ProposalJSON,
  proposalChange,
  proposalsIn,
  proposalsMapName,
  resolveProposals,
} from '@tandem/protocol'
import { type Disposable, Emitter, Range } from '@tandem/text'
import type * as Y from 'yjs'
import { apiBase, requestJson } from './http-api.js'
import type { CollabUser } from './peers.js'

/** One change of a live proposal: where it is in the text now, and what it puts there. */
export interface LiveProposalChange {
  /** Offset of the first character it replaces. */
  readonly from: number
  /** Offset after the last character it replaces (`from` for a pure insertion). */
  readonly to: number
  /** The text proposed in place of `from`..`to`. */
  readonly insert: string
  /** The text it replaces, as it reads now. */
  readonly replaced: string
  /** `from`..`to` in buffer coordinates (null without an editor). */
  readonly range: Range | null
}

/** A proposal as it stands in the text now (see `DocumentProposals.list`). */
export interface LiveProposal {
  /** Its id. */
  readonly id: string
  /** The user id of the program that proposed it. */
  readonly user: string
  /** The program's name as people see it. */
  readonly name: string
  /** The program's colour (a CSS colour), or null. */
  readonly color: string | null
  /** What the program says of it, or null. */
  readonly message: string | null
  /** When it was proposed, in ms since the epoch. */
  readonly at: number
  /** Its changes in text order; a change whose place is gone is left out. */
  readonly changes: readonly LiveProposalChange[]
}

/** A change to propose: replace offsets `from`..`to` of the text as it is here with `insert`. */
export interface ProposedChange {
  /** Offset of the first character to replace. */
  readonly from: number
  /** Offset after the last one (`from` to insert only). */
  readonly to: number
  /** The text to put there. */
  readonly insert: string
}

/** The server refused or failed to accept or reject a proposal: its status and its reason. */
export class ProposalError extends Error {
  /** Always `'ProposalError'`. */
  override readonly name = 'ProposalError'

  constructor(
    /** The HTTP status (0 when the server could not be reached; 404: no such proposal). */
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** What `DocumentProposals` needs to reach the server and to sign what it proposes. */
export interface DocumentProposalsOptions {
  /** The server's WebSocket URL, as given to `connect`. */
  readonly url: string
  /** The room. */
  readonly room: string
  /** The token to send, read at each request (it may be renewed). */
  readonly token: () => string | undefined
  /** Who proposes: the connection's awareness user (its `id`, `name` and `color`). */
  readonly user: () => CollabUser
  /** The text's name in the document (default `"text"`). */
  readonly textName?: string
  /** The fetch to use (default the global one). */
  readonly fetch?: typeof fetch
}

/**
 * The proposals on one connected document (`connection.proposals`).
 *
 * @example connection.proposals.onDidChange(() => render(connection.proposals.list()))
 */
export class DocumentProposals {
  private readonly emitter = new Emitter<{ 'did-change': undefined }>()
  private readonly text: Y.Text
  private readonly map: Y.Map<unknown>
  private readonly base: string
  private readonly onTransaction = (transaction: Y.Transaction) => this.transacted(transaction)
  private disposed = false

  constructor(
    private readonly doc: Y.Doc,
    private readonly editor: TextEditor | null,
    private readonly options: DocumentProposalsOptions,
  ) {
    const textName = options.textName ?? 'text'
    this.text = doc.getText(textName)
    this.map = doc.getMap(proposalsMapName(textName))
    this.base = apiBase(options.url, options.room)
    doc.on('afterTransaction', this.onTransaction)
  }

  /**
   * The proposals now, oldest first, each change where it is in the text now. Malformed
   * entries are left out, and so is a proposal none of whose places resolve any more.
   *
   * @example connection.proposals.list().map((proposal) => proposal.message)
   */
  list(): LiveProposal[] {
    const buffer = this.editor?.getBuffer() ?? null
    const content = this.text.toString()
    const live: LiveProposal[] = []
    const proposals = proposalsIn(this.doc, this.textName)
    const resolved = resolveProposals(this.text, proposals)
    for (const [i, proposal] of proposals.entries()) {
      const changes = resolved[i]!.map(({ from, to, insert }) => ({
        from,
        to,
        insert,
        replaced: content.slice(from, to),
        range:
          buffer === null
            ? null
            : new Range(
                buffer.positionForCharacterIndex(from),
                buffer.positionForCharacterIndex(to),
              ),
      }))
      if (changes.length === 0) continue
      const { id, user, name, color, message, at } = proposal
      live.push({ id, user, name, color, message, at, changes })
    }
    return live
  }

  /**
   * Calls `callback` after a transaction (local or remote) that added, changed or removed a
   * proposal, or changed the text while there are proposals (their places may have moved).
   */
  onDidChange(callback: () => void): Disposable {
    return this.emitter.on('did-change', callback)
  }

  /**
   * Asks the server to apply proposal `id` as its program's text, recording this user as the
   * one who accepted it; the change and the proposal's removal then sync here. Rejects with a
   * `ProposalError`: 404 for an unknown proposal, 403 with the server's reason for a
   * read-only token.
   *
   * @example await connection.proposals.accept(proposal.id)
   */
  async accept(id: string): Promise<void> {
    await this.request(`proposals/${checkId(id)}/accept`)
  }

  /**
   * Asks the server to remove proposal `id` without changing the text; rejects as `accept`
   * does.
   *
   * @example await connection.proposals.reject(proposal.id)
   */
  async reject(id: string): Promise<void> {
    await this.request(`proposals/${checkId(id)}/reject`)
  }

  /**
   * Proposes `changes` (offsets in the text as it is here, not overlapping) as this
   * connection's user, with an optional message; returns the new proposal's id.
   * The proposal is a write to the document: it syncs like an edit, and a server refuses it
   * from a read-only connection. Throws a RangeError for offsets outside the text, overlapping
   * changes or too much, and a TypeError for a message that is not a string.
   *
   * @example const id = connection.proposals.propose([{ from: 0, to: 5, insert: 'Hello' }], { message: 'Greet' })
   */
  propose(changes: readonly ProposedChange[], options: { readonly message?: string } = {}): string {
    if (this.disposed) throw new Error('propose: this connection was destroyed')
    if (!Array.isArray(changes) || changes.length === 0) {
      throw new RangeError('propose needs at least one change')
    }
    if (changes.length > MAX_PROPOSAL_CHANGES) {
      throw new RangeError(`a proposal holds at most ${MAX_PROPOSAL_CHANGES} changes`)
    }
    const message = options.message ?? null
    if (message !== null && typeof message !== 'string') {
      throw new TypeError(`a proposal's message is a string, got ${typeof message}`)
    }
    if (message !== null && message.length > MAX_PROPOSAL_MESSAGE_LENGTH) {
      throw new RangeError(`a proposal's message is at most ${MAX_PROPOSAL_MESSAGE_LENGTH} long`)
    }
    const sorted = [...changes].sort((a, b) => a.from - b.from)
    let end = 0
    let inserted = 0
    for (const change of sorted) {
      if (typeof change?.insert !== 'string') {
        throw new TypeError(`a change's insert is a string, got ${typeof change?.insert}`)
      }
      if (change.from < end) throw new RangeError('the changes of a proposal must not overlap')
      end = change.to
      inserted += change.insert.length
    }
    if (inserted > MAX_PROPOSAL_TEXT_LENGTH) {
      throw new RangeError(`a proposal inserts at most ${MAX_PROPOSAL_TEXT_LENGTH} characters`)
    }
    const json = sorted.map(({ from, to, insert }) => proposalChange(this.text, from, to, insert))
    const user = this.options.user()
    const id = newProposalId()
    const proposal: ProposalJSON = {
      id,
      user: user.id ?? user.name,
      name: user.name,
      color: typeof user.color === 'string' && user.color !== '' ? user.color : null,
      message,
      at: Date.now(),
      changes: json,
    }
    this.doc.transact(() => this.map.set(id, proposal), this)
    return id
  }

  /** Stops following the document. Safe twice. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.doc.off('afterTransaction', this.onTransaction)
    this.emitter.dispose()
  }

  private get textName(): string {
    return this.options.textName ?? 'text'
  }

  private transacted(transaction: Y.Transaction): void {
    const changed = transaction.changed as Map<unknown, unknown>
    const proposalsChanged = changed.has(this.map)
    const textChanged = changed.has(this.text) && this.map.size > 0
    if (proposalsChanged || textChanged) this.emitter.emit('did-change', undefined)
  }

  private request(path: string): Promise<unknown> {
    return requestJson(
      {
        base: this.base,
        token: this.options.token(),
        fetch: this.options.fetch,
        error: (status, message) => new ProposalError(status, message),
      },
      path,
      { method: 'POST', body: '{}' },
    )
  }
}

const checkId = (id: string): string => {
  if (typeof id !== 'string' || !isProposalId(id)) {
    throw new TypeError(
      `a proposal id is 1 to 64 letters, digits, - or _, got ${JSON.stringify(id)}`,
    )
  }
  return id
}
