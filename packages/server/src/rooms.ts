/**
 * The rooms in memory: each loaded once however many connections ask for it at the same time,
 * and unloaded after it has been empty for a while (reloaded from the store on demand).
 */
import { Room, type RoomOptions } from './room.js'
import type { DocumentStore } from './storage/document-store.js'

/** Options of a `RoomRegistry`. */
export interface RoomRegistryOptions extends RoomOptions {
  /** How long an empty room stays in memory, in milliseconds (default 30 s). */
  readonly idleUnloadMs?: number
}

/**
 * Loads, shares and unloads rooms.
 *
 * @example const room = await rooms.open('notes'); room.join(peer); ... rooms.release(room)
 */
export class RoomRegistry {
  private readonly loading = new Map<string, Promise<Room>>()
  private readonly idleTimers = new Map<string, NodeJS.Timeout>()

  constructor(
    private readonly store: DocumentStore,
    private readonly options: RoomRegistryOptions = {},
  ) {}

  /** The rooms in memory, by name. */
  get names(): string[] {
    return [...this.loading.keys()]
  }

  /** The room `name`, loaded from the store in full if it is not in memory. */
  async open(name: string): Promise<Room> {
    this.cancelUnload(name)
    let room = this.loading.get(name)
    if (!room) {
      room = Room.load(name, this.store, this.options)
      this.loading.set(name, room)
      // A failed load must not stay cached: the next connection tries again.
      room.catch(() => this.loading.delete(name))
    }
    return room
  }

  /** Call when a connection left `room`: an empty room is unloaded after the idle time. */
  release(room: Room): void {
    if (room.size > 0 || this.idleTimers.has(room.name)) return
    const timer = setTimeout(() => {
      this.idleTimers.delete(room.name)
      if (room.size > 0 || this.loading.get(room.name) === undefined) return
      this.loading.delete(room.name)
      void room.close()
    }, this.options.idleUnloadMs ?? 30_000)
    timer.unref()
    this.idleTimers.set(room.name, timer)
  }

  /** Forgets the room `name` (its storage failed), so the next connection loads it again. */
  forget(name: string): void {
    this.cancelUnload(name)
    this.loading.delete(name)
  }

  /** Waits for every room's pending appends and closes them all. */
  async closeAll(): Promise<void> {
    for (const timer of this.idleTimers.values()) clearTimeout(timer)
    this.idleTimers.clear()
    const rooms = await Promise.allSettled(this.loading.values())
    this.loading.clear()
    await Promise.all(
      rooms.flatMap((result) => (result.status === 'fulfilled' ? [result.value.close()] : [])),
    )
  }

  private cancelUnload(name: string): void {
    const timer = this.idleTimers.get(name)
    if (timer) clearTimeout(timer)
    this.idleTimers.delete(name)
  }
}
