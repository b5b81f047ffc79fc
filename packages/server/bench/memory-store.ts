/**
 * `MemoryStore`: a `DocumentStore` that keeps everything in this process's memory. Nothing
 * survives the process; it exists so that the load benchmark can measure the server without
 * storage, as a peer without a persistence extension runs.
 */
import * as Y from 'yjs'
import type { Attribution } from '../src/history/attribution.js'
import { type AuthoredUpdate, attributionOf } from '../src/storage/attribution-log.js'
import {
  checkRoom,
  checkVersion,
  type DocumentStore,
  type LogSize,
  type NewVersion,
  StorageError,
  type StoredDocument,
  type StoredVersion,
  type UpdateAuthor,
  type VersionInfo,
} from '../src/storage/document-store.js'

/**
 * A `DocumentStore` in memory: appends resolve at once, and are lost with the process.
 *
 * @example const server = new TandemServer({ store: new MemoryStore() })
 */
export class MemoryStore implements DocumentStore {
  private readonly logs = new Map<
    string,
    { updates: Uint8Array[]; authors: (UpdateAuthor | undefined)[]; bytes: number }
  >()
  private readonly attributions = new Map<string, Uint8Array>()
  private readonly versions = new Map<string, StoredVersion[]>()
  private lastVersionId = 0
  private readonly sessions = new Map<string, string>()
  private readonly meta = new Map<string, string>()
  private closed = false

  async load(room: string): Promise<StoredDocument> {
    this.check(room)
    const log = this.logs.get(room)
    return log === undefined
      ? { updates: [], size: { updates: 0, bytes: 0 } }
      : { updates: [...log.updates], size: sizeOf(log) }
  }

  async append(room: string, update: Uint8Array, author?: UpdateAuthor): Promise<LogSize> {
    this.check(room)
    if (!(update instanceof Uint8Array)) {
      throw new TypeError(`an update must be a Uint8Array, got ${typeof update}`)
    }
    let log = this.logs.get(room)
    if (log === undefined) {
      log = { updates: [], authors: [], bytes: 0 }
      this.logs.set(room, log)
    }
    log.updates.push(update)
    log.authors.push(author)
    log.bytes += update.length
    return sizeOf(log)
  }

  async compact(room: string): Promise<LogSize> {
    this.check(room)
    const log = this.logs.get(room)
    if (log === undefined) return { updates: 0, bytes: 0 }
    if (log.updates.length > 1) {
      this.attributions.set(room, this.attributionOf(room).encode())
      const merged = Y.mergeUpdates(log.updates)
      log.updates = [merged]
      log.authors = [undefined]
      log.bytes = merged.length
    }
    return sizeOf(log)
  }

  async saveVersion(room: string, version: NewVersion): Promise<VersionInfo> {
    this.check(room)
    checkVersion(version)
    const stored: StoredVersion = {
      ...version,
      authors: [...version.authors],
      id: String(++this.lastVersionId),
      bytes: version.state.length,
    }
    this.versions.set(room, [...(this.versions.get(room) ?? []), stored])
    const { state: _, ...info } = stored
    return info
  }

  async listVersions(room: string): Promise<VersionInfo[]> {
    this.check(room)
    return (this.versions.get(room) ?? []).map(({ state: _, ...info }) => info)
  }

  async loadVersion(room: string, id: string): Promise<StoredVersion | null> {
    this.check(room)
    return (this.versions.get(room) ?? []).find((version) => version.id === id) ?? null
  }

  async deleteVersions(room: string, ids: readonly string[]): Promise<void> {
    this.check(room)
    const gone = new Set(ids)
    this.versions.set(
      room,
      (this.versions.get(room) ?? []).filter((version) => !gone.has(version.id)),
    )
  }

  async loadAttribution(room: string): Promise<Attribution> {
    this.check(room)
    return this.attributionOf(room)
  }

  private attributionOf(room: string): Attribution {
    const log = this.logs.get(room)
    const authored: AuthoredUpdate[] = (log?.updates ?? []).map((data, i) => ({
      data,
      user: log?.authors[i]?.user ?? null,
      time: log?.authors[i]?.time ?? null,
      acceptedBy: log?.authors[i]?.acceptedBy ?? null,
    }))
    return attributionOf(room, this.attributions.get(room) ?? null, authored)
  }

  async saveSession(room: string, user: string, session: string): Promise<void> {
    this.check(room)
    this.sessions.set(JSON.stringify([room, user]), session)
  }

  async loadSession(room: string, user: string): Promise<string | null> {
    this.check(room)
    return this.sessions.get(JSON.stringify([room, user])) ?? null
  }

  async setMeta(room: string, key: string, value: string | null): Promise<void> {
    this.check(room)
    const id = JSON.stringify([room, key])
    if (value === null) this.meta.delete(id)
    else this.meta.set(id, value)
  }

  async getMeta(room: string, key: string): Promise<string | null> {
    this.check(room)
    return this.meta.get(JSON.stringify([room, key])) ?? null
  }

  async listRooms(): Promise<string[]> {
    return [...this.logs.keys()].sort()
  }

  async close(): Promise<void> {
    this.closed = true
  }

  private check(room: string): void {
    if (this.closed) throw new StorageError('the memory store is closed')
    checkRoom(room)
  }
}

const sizeOf = (log: { updates: readonly Uint8Array[]; bytes: number }): LogSize => ({
  updates: log.updates.length,
  bytes: log.bytes,
})
