/**
 * The copy of a room's document that server-made changes are made on (a program's change over
 * HTTP, a streamed piece, a restore). The room's own document may only change once a change
 * is stored, so a change is made on a copy first and its update stored, then applied.
 *
 * Copying the whole document for each change costs O(document): some 36 ms for a 100,000
 * character text with its editing history, for every token of a streamed answer. This copy is
 * made once, follows each update the room's document applies (O(update)), and gives each
 * change's own update from its transaction, so a change costs O(change). It makes its changes
 * as one Yjs client, so a day of them adds one entry to the state vector, not thousands.
 *
 * A change whose edit throws, or whose update the room could not store, may be in the copy
 * and not in the room: the copy is then dropped, and the next change makes a fresh one. An
 * idle copy is dropped after `idleMs` too, to keep a room's memory what it was.
 *
 * @module
 */
import * as Y from 'yjs'

/** How long an unused copy is kept. */
export const CHANGE_COPY_IDLE_MS = 60_000

/**
 * A lazily made copy of `doc` that follows it.
 *
 * @example const update = copies.change((doc) => doc.getText('text').insert(0, 'Title\n'))
 */
export class ChangeCopy {
  private copy: Y.Doc | null = null
  private idleTimer: ReturnType<typeof setTimeout> | null = null

  constructor(
    private readonly doc: Y.Doc,
    private readonly idleMs = CHANGE_COPY_IDLE_MS,
  ) {}

  /**
   * Makes `edit` on the copy, in one transaction, and answers its update (null when it
   * changed nothing). The room's document is untouched: apply the update once it is stored,
   * or call `drop()` if it never will be. An edit that throws drops the copy and throws.
   */
  change(edit: (doc: Y.Doc) => void): Uint8Array | null {
    const copy = this.open()
    let update: Uint8Array | null = null
    const origin = Symbol('change')
    const take = (changed: Uint8Array, from: unknown) => {
      if (from === origin) update = changed
    }
    copy.on('update', take)
    try {
      copy.transact(() => edit(copy), origin)
    } catch (error) {
      this.drop()
      throw error
    } finally {
      copy.off('update', take)
    }
    this.keepAlive()
    return update
  }

  /** Forgets the copy (it may hold a change the room will not have). Safe when there is none. */
  drop(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer)
    this.idleTimer = null
    if (this.copy === null) return
    this.doc.off('update', this.follow)
    this.copy.destroy()
    this.copy = null
  }

  /** Whether a copy is kept now. */
  get isOpen(): boolean {
    return this.copy !== null
  }

  private open(): Y.Doc {
    if (this.copy !== null) return this.copy
    const copy = new Y.Doc()
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(this.doc))
    this.copy = copy
    this.doc.on('update', this.follow)
    return copy
  }

  private readonly follow = (update: Uint8Array): void => {
    if (this.copy !== null) Y.applyUpdate(this.copy, update)
  }

  private keepAlive(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => this.drop(), this.idleMs)
    this.idleTimer.unref?.()
  }
}
