/**
 * A store whose appends a test can hold: the moment between a server receiving an update and
 * the store having it, made as long as a test needs, to check that nothing reaches a client
 * in that moment.
 */
import type { Attribution } from '../history/attribution.js'
import type {
  DocumentStore,
  LogSize,
  NewVersion,
  StoredDocument,
  StoredProgramChange,
  StoredVersion,
  UpdateAuthor,
  VersionInfo,
} from '../storage/document-store.js'

interface Parked {
  readonly room: string
  readonly update: Uint8Array
  go(): void
}

/**
 * Wraps `inner`: while held, each append waits (parked, in order) until released.
 *
 * @example
 * const store = new HeldStore(SqliteStore.open({ file })); store.hold()
 * // ... a client types; await store.waitForParked(1); store.release(1)
 */
export class HeldStore implements DocumentStore {
  private holding = false
  private readonly parked: Parked[] = []
  private everParked = 0
  private readonly watchers = new Set<() => void>()

  constructor(
    private readonly inner: DocumentStore,
    /** Told whenever the number of parked appends changes, with how many were ever parked. */
    private readonly onChange: (parked: number, total: number) => void = () => {},
  ) {}

  /** Appends from now on wait until released. */
  hold(): void {
    this.holding = true
  }

  /** Lets the `count` oldest parked appends through (all by default); with none left, stops holding. */
  release(count = Number.POSITIVE_INFINITY): void {
    const released = this.parked.splice(0, count)
    if (count === Number.POSITIVE_INFINITY) this.holding = false
    for (const append of released) append.go()
    this.changed()
  }

  /** Appends waiting now. */
  get parkedCount(): number {
    return this.parked.length
  }

  /** Appends that ever waited. */
  get parkedTotal(): number {
    return this.everParked
  }

  /** The updates of the appends waiting now, oldest first. */
  get parkedUpdates(): Uint8Array[] {
    return this.parked.map((append) => append.update)
  }

  /** Resolves once at least `count` appends wait. */
  waitForParked(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.parked.length < count) return
        this.watchers.delete(check)
        resolve()
      }
      this.watchers.add(check)
      check()
    })
  }

  async append(room: string, update: Uint8Array, author?: UpdateAuthor): Promise<LogSize> {
    if (this.holding) {
      await new Promise<void>((go) => {
        this.parked.push({ room, update, go })
        this.everParked++
        this.changed()
      })
    }
    return this.inner.append(room, update, author)
  }

  loadAttribution(room: string): Promise<Attribution> {
    return this.inner.loadAttribution(room)
  }

  saveVersion(room: string, version: NewVersion): Promise<VersionInfo> {
    return this.inner.saveVersion(room, version)
  }

  listVersions(room: string): Promise<VersionInfo[]> {
    return this.inner.listVersions(room)
  }

  loadVersion(room: string, id: string): Promise<StoredVersion | null> {
    return this.inner.loadVersion(room, id)
  }

  deleteVersions(room: string, ids: readonly string[]): Promise<void> {
    return this.inner.deleteVersions(room, ids)
  }

  load(room: string): Promise<StoredDocument> {
    return this.inner.load(room)
  }

  compact(room: string): Promise<LogSize> {
    return this.inner.compact(room)
  }

  saveSession(room: string, user: string, session: string): Promise<void> {
    return this.inner.saveSession(room, user, session)
  }

  loadSession(room: string, user: string): Promise<string | null> {
    return this.inner.loadSession(room, user)
  }

  saveUndoHistory(room: string, user: string, history: Uint8Array | null): Promise<void> {
    return this.inner.saveUndoHistory?.(room, user, history) ?? Promise.resolve()
  }

  loadUndoHistory(room: string, user: string): Promise<Uint8Array | null> {
    return this.inner.loadUndoHistory?.(room, user) ?? Promise.resolve(null)
  }

  saveProgramChange(room: string, id: string, change: Uint8Array): Promise<void> {
    return this.inner.saveProgramChange?.(room, id, change) ?? Promise.resolve()
  }

  loadProgramChanges(room: string, limit: number): Promise<StoredProgramChange[]> {
    return this.inner.loadProgramChanges?.(room, limit) ?? Promise.resolve([])
  }

  setMeta(room: string, key: string, value: string | null): Promise<void> {
    return this.inner.setMeta(room, key, value)
  }

  getMeta(room: string, key: string): Promise<string | null> {
    return this.inner.getMeta(room, key)
  }

  listRooms(): Promise<string[]> {
    return this.inner.listRooms()
  }

  close(): Promise<void> {
    this.release()
    return this.inner.close()
  }

  private changed(): void {
    this.onChange(this.parked.length, this.everParked)
    for (const watcher of [...this.watchers]) watcher()
  }
}
