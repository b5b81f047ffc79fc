/**
 * A room's attribution in memory: loaded from the store the first time someone asks who
 * wrote what, then kept up to date with every update the room stores. Updates another
 * instance stored arrive without their author; they make the next question read the store
 * again (which has their authors: instances share it).
 *
 * @module
 */
import type { DocumentStore, UpdateAuthor } from '../storage/document-store.js'
import type { Attribution } from './attribution.js'
import { idsOfUpdate } from './update-ids.js'

/** The user an update is attributed to when its connection names nobody. */
export const ANONYMOUS_AUTHOR = 'anonymous'

/**
 * One room's attribution, loaded on demand and followed as the room stores updates.
 *
 * @example const attribution = await room.attribution.current()
 */
export class RoomAttribution {
  private attribution: Attribution | null = null
  private loading: Promise<Attribution> | null = null
  /** Stored while a load was on its way: recorded into it once it lands. */
  private storedMeanwhile: { update: Uint8Array; author: UpdateAuthor }[] = []
  /** Bumped whenever what is in memory may lack something the store has. */
  private generation = 0

  constructor(
    private readonly room: string,
    private readonly store: DocumentStore,
  ) {}

  /**
   * The room stored `update`, sent by `author`. Recorded only when the attribution is in
   * memory (or on its way): nobody asked otherwise, and the store has it.
   */
  stored(update: Uint8Array, author: UpdateAuthor | undefined): void {
    if (author === undefined) return
    if (this.loading !== null) this.storedMeanwhile.push({ update, author })
    else if (this.attribution !== null) record(this.attribution, update, author)
  }

  /** Something reached the room from the store or another instance: read the store next time. */
  invalidate(): void {
    this.generation++
    this.attribution = null
  }

  /** The attribution of everything the room has stored so far. */
  async current(): Promise<Attribution> {
    for (;;) {
      if (this.attribution !== null) return this.attribution
      const generation = this.generation
      this.loading ??= this.load()
      const loaded = await this.loading
      if (generation === this.generation) return loaded
    }
  }

  private async load(): Promise<Attribution> {
    this.storedMeanwhile = []
    const generation = this.generation
    try {
      const attribution = await this.store.loadAttribution(this.room)
      for (const { update, author } of this.storedMeanwhile) record(attribution, update, author)
      if (generation === this.generation) this.attribution = attribution
      return attribution
    } finally {
      this.storedMeanwhile = []
      this.loading = null
    }
  }
}

const record = (attribution: Attribution, update: Uint8Array, author: UpdateAuthor): void => {
  try {
    attribution.record(idsOfUpdate(update), author.user, author.time, author.acceptedBy ?? null)
  } catch {
    // Every stored update decoded when it arrived; one that does not now is left unattributed.
  }
}
