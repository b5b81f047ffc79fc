import type { Span } from './span-tree.js'

/**
 * Finds the span holding a Yjs id: one list per client, sorted by clock.
 *
 * Spans of one client never overlap, so a binary search on the start clock finds the only
 * candidate. Inserting in the middle moves array entries, as Yjs's own struct store does.
 */
export class ClockIndex {
  private readonly clients = new Map<number, Span[]>()

  /** The span holding id (`client`, `clock`), or undefined when this text has none. */
  find(client: number, clock: number): Span | undefined {
    const list = this.clients.get(client)
    if (list === undefined) return undefined
    const i = lastStartingAtOrBefore(list, clock)
    if (i < 0) return undefined
    const span = list[i]!
    return clock < span.clock + span.len ? span : undefined
  }

  /** Spans of `client` that overlap clocks [clock, clock + len), in clock order. */
  overlapping(client: number, clock: number, len: number): Span[] {
    const list = this.clients.get(client)
    if (list === undefined) return []
    const end = clock + len
    let i = Math.max(0, lastStartingAtOrBefore(list, clock))
    const found: Span[] = []
    for (; i < list.length; i++) {
      const span = list[i]!
      if (span.clock >= end) break
      if (span.clock + span.len > clock) found.push(span)
    }
    return found
  }

  /** Adds a span; its clocks must not overlap any span already here. */
  add(span: Span): void {
    let list = this.clients.get(span.client)
    if (list === undefined) {
      list = []
      this.clients.set(span.client, list)
    }
    const last = list[list.length - 1]
    if (last === undefined || last.clock < span.clock) {
      list.push(span)
    } else {
      list.splice(lastStartingAtOrBefore(list, span.clock) + 1, 0, span)
    }
  }

  /** Removes a span that is here. */
  remove(span: Span): void {
    const list = this.clients.get(span.client)
    if (list === undefined) return
    const i = lastStartingAtOrBefore(list, span.clock)
    if (list[i] === span) list.splice(i, 1)
  }

  /** Drops every span. */
  clear(): void {
    this.clients.clear()
  }
}

/** Index of the last span whose start clock is <= `clock`, or -1. */
const lastStartingAtOrBefore = (list: Span[], clock: number): number => {
  let low = 0
  let high = list.length - 1
  let found = -1
  while (low <= high) {
    const mid = (low + high) >> 1
    if (list[mid]!.clock <= clock) {
      found = mid
      low = mid + 1
    } else {
      high = mid - 1
    }
  }
  return found
}
