import type { Span } from './span-tree.js'

/** A chunk splits in two past this many spans; chunks keep inserts cheap in long lists. */
const MAX_CHUNK = 512

/**
 * Finds the span holding a Yjs id: per client, spans sorted by clock, in chunks of at most
 * `MAX_CHUNK`.
 *
 * Spans of one client never overlap, so a binary search on the start clock finds the only
 * candidate. Typing all over one long item splits it again and again, each new span going
 * in the middle of its client's list: in chunks, that moves at most one chunk's entries
 * instead of the whole rest of the list (which Yjs's own struct store does).
 */
export class ClockIndex {
  private readonly clients = new Map<number, Span[][]>()

  /** The span holding id (`client`, `clock`), or undefined when this text has none. */
  find(client: number, clock: number): Span | undefined {
    const chunks = this.clients.get(client)
    if (chunks === undefined) return undefined
    const c = lastChunkStartingAtOrBefore(chunks, clock)
    if (c < 0) return undefined
    const chunk = chunks[c]!
    const span = chunk[lastStartingAtOrBefore(chunk, clock)]!
    return clock < span.clock + span.len ? span : undefined
  }

  /** Spans of `client` that overlap clocks [clock, clock + len), in clock order. */
  overlapping(client: number, clock: number, len: number): Span[] {
    const chunks = this.clients.get(client)
    const found: Span[] = []
    if (chunks === undefined) return found
    const end = clock + len
    let c = Math.max(0, lastChunkStartingAtOrBefore(chunks, clock))
    let i = Math.max(0, lastStartingAtOrBefore(chunks[c]!, clock))
    for (; c < chunks.length; c++, i = 0) {
      const chunk = chunks[c]!
      for (; i < chunk.length; i++) {
        const span = chunk[i]!
        if (span.clock >= end) return found
        if (span.clock + span.len > clock) found.push(span)
      }
    }
    return found
  }

  /** Adds a span; its clocks must not overlap any span already here. */
  add(span: Span): void {
    let chunks = this.clients.get(span.client)
    if (chunks === undefined) {
      chunks = [[]]
      this.clients.set(span.client, chunks)
    }
    let c = chunks.length - 1
    let chunk = chunks[c]!
    const last = chunk[chunk.length - 1]
    if (last === undefined || last.clock < span.clock) {
      chunk.push(span)
    } else {
      c = Math.max(0, lastChunkStartingAtOrBefore(chunks, span.clock))
      chunk = chunks[c]!
      chunk.splice(lastStartingAtOrBefore(chunk, span.clock) + 1, 0, span)
    }
    if (chunk.length > MAX_CHUNK) chunks.splice(c + 1, 0, chunk.splice(chunk.length >> 1))
  }

  /** Removes a span that is here. */
  remove(span: Span): void {
    const chunks = this.clients.get(span.client)
    if (chunks === undefined) return
    const c = lastChunkStartingAtOrBefore(chunks, span.clock)
    if (c < 0) return
    const chunk = chunks[c]!
    const i = lastStartingAtOrBefore(chunk, span.clock)
    if (chunk[i] !== span) return
    chunk.splice(i, 1)
    if (chunk.length === 0 && chunks.length > 1) chunks.splice(c, 1)
  }

  /** Drops every span. */
  clear(): void {
    this.clients.clear()
  }
}

/** Index of the last chunk whose first span starts at or before `clock`, or -1. */
const lastChunkStartingAtOrBefore = (chunks: Span[][], clock: number): number => {
  let low = 0
  let high = chunks.length - 1
  let found = -1
  while (low <= high) {
    const mid = (low + high) >> 1
    const first = chunks[mid]![0]
    if (first !== undefined && first.clock <= clock) {
      found = mid
      low = mid + 1
    } else {
      high = mid - 1
    }
  }
  return found
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
