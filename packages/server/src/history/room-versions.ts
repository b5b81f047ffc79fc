/**
 * A room's versions: made automatically after a pause in its activity and at least every
 * few minutes while it goes on, saved by name when a user asks, thinned with age by a
 * retention policy, and read back, compared and restored.
 *
 * A version is the room's whole document as one Yjs update, taken from the room's document,
 * which holds only what the store has: a version never shows text a crash could lose. The
 * live document keeps garbage collection on; the history lives in the store.
 *
 * @module
 */
import * as Y from 'yjs'
import type { DocumentStore, VersionInfo, VersionKind } from '../storage/document-store.js'
import { checkRetention, type RetentionPolicy, versionsToDrop } from './retention.js'
import type { RoomAttribution } from './room-attribution.js'
import { textAuthorsSince } from './text-authors.js'
import { changesOf, type DiffRun, diffStates, type TextChange } from './version-diff.js'

/** When a room makes versions by itself, and how long it keeps them. */
export interface VersionOptions {
  /** Make no automatic versions (named ones still work). Default false. */
  readonly manualOnly?: boolean
  /** An automatic version follows this long without changes, in ms (default 60 s). */
  readonly pauseMs?: number
  /** And one is made at least this often while changes go on, in ms (default 10 min). */
  readonly maxIntervalMs?: number
  /** How automatic versions are thinned with age (see `DEFAULT_RETENTION`). */
  readonly retention?: Partial<RetentionPolicy>
}

/** The default pause after which a room makes an automatic version: a minute. */
export const DEFAULT_VERSION_PAUSE_MS = 60_000

/** The default longest stretch of activity without an automatic version: ten minutes. */
export const DEFAULT_VERSION_MAX_INTERVAL_MS = 10 * 60_000

/** A diff between two versions (or a version and now), as runs and as changes. */
export interface VersionDiff {
  /** The text in document order: kept, inserted and deleted stretches, with their authors. */
  readonly runs: DiffRun[]
  /** The changes from the first text to the second, offsets in the first. */
  readonly changes: TextChange[]
}

/** A version with its text, as `open` gives it. */
export interface OpenedVersion extends VersionInfo {
  /** The text as it was. */
  readonly text: string
}

/** A restored version, and the changes that made the current text read as it did. */
export interface RestoredVersion {
  /** The version restored. */
  readonly version: VersionInfo
  /** The changes made, offsets in the text before them. */
  readonly changes: TextChange[]
}

/** What a room's versions need of the room. */
export interface VersionHost {
  readonly name: string
  readonly doc: Y.Doc
  readonly textName: string
  readonly store: DocumentStore
  readonly attribution: RoomAttribution
  /** An automatic version could not be made or thinned; the room goes on. */
  failed(error: unknown): void
}

/** `now`, the current text, as one side of a diff. */
export const NOW = 'now'

/**
 * One room's versions.
 *
 * @example const versions = new RoomVersions(room, { pauseMs: 30_000 })
 */
export class RoomVersions {
  private readonly pauseMs: number
  private readonly maxIntervalMs: number
  private readonly retention: RetentionPolicy
  private pauseTimer: NodeJS.Timeout | null = null
  /** When the first change not in a version was stored; null when every change is in one. */
  private changedSince: number | null = null
  /** The time of the last version made here, for its successor's authors. */
  private lastVersionTime: number | null = null
  private saving: Promise<unknown> = Promise.resolve()
  private closed = false

  constructor(
    private readonly host: VersionHost,
    private readonly options: VersionOptions = {},
  ) {
    this.pauseMs = checkDelay('pauseMs', options.pauseMs ?? DEFAULT_VERSION_PAUSE_MS)
    this.maxIntervalMs = checkDelay(
      'maxIntervalMs',
      options.maxIntervalMs ?? DEFAULT_VERSION_MAX_INTERVAL_MS,
    )
    this.retention = checkRetention(options.retention)
  }

  /** The room stored a change: an automatic version follows the pause, or the interval. */
  changed(): void {
    if (this.closed || this.options.manualOnly) return
    const now = Date.now()
    this.changedSince ??= now
    if (this.pauseTimer !== null) clearTimeout(this.pauseTimer)
    const waited = now - this.changedSince
    const delay = Math.min(this.pauseMs, Math.max(0, this.maxIntervalMs - waited))
    this.pauseTimer = setTimeout(() => this.saveAutomatic(), delay)
    this.pauseTimer.unref()
  }

  /**
   * Keeps the document as it is now: a named version (`name` given by `user`) or an automatic
   * one. Resolves with how it is listed.
   *
   * @example await versions.save('named', 'Before the rewrite', 'ada')
   */
  async save(kind: VersionKind, name: string | null, user?: string): Promise<VersionInfo> {
    const time = Date.now()
    const text = this.host.doc.getText(this.host.textName)
    const state = Y.encodeStateAsUpdate(this.host.doc)
    const since = this.lastVersionTime ?? (await this.lastTime())
    const attribution = await this.host.attribution.current()
    const authors = textAuthorsSince(text, attribution, since ?? 0)
    if (user !== undefined && !authors.includes(user) && kind === 'named') authors.push(user)
    const info = await this.host.store.saveVersion(this.host.name, {
      kind,
      name,
      time,
      authors,
      length: text.length,
      state,
    })
    this.lastVersionTime = time
    this.changedSince = null
    return info
  }

  /** The room's versions, oldest first. */
  list(): Promise<VersionInfo[]> {
    return this.host.store.listVersions(this.host.name)
  }

  /** A version with its text, or null when the room has no such version. */
  async open(id: string): Promise<OpenedVersion | null> {
    const version = await this.host.store.loadVersion(this.host.name, id)
    if (version === null) return null
    const { state, ...info } = version
    return { ...info, text: textOf(state, this.host.textName) }
  }

  /**
   * The difference from version `from` to version `to` (either may be `NOW`), with authors;
   * null when either version does not exist.
   *
   * @example await versions.diff('12', NOW)
   */
  async diff(from: string, to: string): Promise<VersionDiff | null> {
    const [earlier, later] = await Promise.all([this.stateOf(from), this.stateOf(to)])
    if (earlier === null || later === null) return null
    const attribution = await this.host.attribution.current()
    const runs = diffStates(earlier, later, this.host.textName, attribution)
    return { runs, changes: changesOf(runs) }
  }

  /**
   * The changes that turn the text as it is now into version `id`'s (offsets in the current
   * text), or null when there is no such version.
   */
  async changesToRestore(id: string): Promise<RestoredVersion | null> {
    const version = await this.host.store.loadVersion(this.host.name, id)
    if (version === null) return null
    const { state, ...info } = version
    const runs = diffStates(Y.encodeStateAsUpdate(this.host.doc), state, this.host.textName)
    return { version: info, changes: changesOf(runs) }
  }

  /** Stops the timers; a change not yet in a version is kept in one first. */
  async close(): Promise<void> {
    if (this.pauseTimer !== null) clearTimeout(this.pauseTimer)
    this.pauseTimer = null
    if (this.changedSince !== null && !this.options.manualOnly) this.saveAutomatic()
    this.closed = true
    await this.saving
  }

  private saveAutomatic(): void {
    this.pauseTimer = null
    if (this.changedSince === null) return
    this.saving = this.saving
      .then(async () => {
        if (this.changedSince === null) return
        await this.save('auto', null)
        const all = await this.list()
        const drop = versionsToDrop(all, Date.now(), this.retention)
        if (drop.length > 0) await this.host.store.deleteVersions(this.host.name, drop)
      })
      .catch((error: unknown) => this.host.failed(error))
  }

  private async stateOf(id: string): Promise<Uint8Array | null> {
    if (id === NOW) return Y.encodeStateAsUpdate(this.host.doc)
    return (await this.host.store.loadVersion(this.host.name, id))?.state ?? null
  }

  private async lastTime(): Promise<number | null> {
    const all = await this.list()
    return all.length === 0 ? null : Math.max(...all.map((v) => v.time))
  }
}

/** The text named `textName` of a whole document given as one update. */
export const textOf = (state: Uint8Array, textName: string): string => {
  const doc = new Y.Doc()
  try {
    Y.applyUpdate(doc, state)
    return doc.getText(textName).toString()
  } finally {
    doc.destroy()
  }
}

const checkDelay = (name: string, value: number): number => {
  if (!(Number.isSafeInteger(value) && value >= 0)) {
    throw new RangeError(`${name} must be a whole number of ms, got ${value}`)
  }
  return value
}
