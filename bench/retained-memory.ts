/**
 * Memory that an object keeps alive, from `process.memoryUsage()` on a collected heap: the
 * JavaScript heap in use plus array buffers. Needs `node --expose-gc` (as `pnpm bench` runs).
 */
import { readFileSync } from 'node:fs'
import { median } from './harness.js'

const gc = (globalThis as { gc?: () => void }).gc

/** Retained bytes over several repeats, and their median. */
export interface RetainedBytes {
  /** One figure per repeat, in measuring order. */
  readonly samples: readonly number[]
  readonly median: number
  /** (largest - smallest) / median: how far the repeats disagree. */
  readonly spread: number
}

/**
 * Collects garbage until the heap settles: full collections with a turn of the event loop
 * between them, so that weak callbacks and finalizers run and what they free is collected.
 */
export async function settleHeap(): Promise<void> {
  if (gc === undefined) throw new Error('memory figures need node --expose-gc (pnpm bench has it)')
  gc()
  await new Promise((resolve) => setImmediate(resolve))
  gc()
}

/** JavaScript heap in use plus array buffers, in bytes, right now. */
export function heapBytes(): number {
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.arrayBuffers
}

/**
 * Bytes of the C heap (glibc's main arena, `[heap]` in `/proc/self/smaps`) that are resident,
 * where native addons allocate small objects; null where that file does not exist. Freed
 * memory stays in the arena, so only growth in a fresh process measures an allocation.
 */
export function nativeHeapBytes(): number | null {
  let smaps: string
  try {
    smaps = readFileSync('/proc/self/smaps', 'utf8')
  } catch {
    return null
  }
  const at = smaps.indexOf(' [heap]\n')
  if (at < 0) return 0
  const rss = /\nRss:\s+(\d+) kB/.exec(smaps.slice(at))
  return rss === null ? 0 : Number(rss[1]) * 1024
}

/** What {@link retainedBytes} measures: `prepare` and `release` are not counted. */
export interface RetainedSpec<P, R> {
  /** Makes what the measured object needs but does not own (not counted). */
  readonly prepare: () => P
  /** Builds the object to measure. */
  readonly build: (prepared: P) => R
  /** Frees what `prepare` and `build` made (e.g. destroys a buffer). */
  readonly release?: (built: R, prepared: P) => void
}

/**
 * The bytes `build` leaves alive on the JavaScript heap, measured `repeats` times after one
 * unmeasured warm-up (which compiles the code and makes its hidden classes).
 * Example: `(await retainedBytes({ prepare: () => text, build: (t) => new TextBuffer(t) }, 5)).median`.
 */
export async function retainedBytes<P, R>(
  spec: RetainedSpec<P, R>,
  repeats: number,
): Promise<RetainedBytes> {
  await measureOnce(spec)
  const samples: number[] = []
  for (let i = 0; i < repeats; i++) samples.push(await measureOnce(spec))
  return summarize(samples)
}

/** The median and spread of `samples`. */
export function summarize(samples: readonly number[]): RetainedBytes {
  const middle = median(samples)
  const spread = middle === 0 ? 0 : (Math.max(...samples) - Math.min(...samples)) / Math.abs(middle)
  return { samples, median: middle, spread }
}

/**
 * One measurement. Its own call, so that nothing from an earlier repeat stays reachable from
 * a variable that the next repeat has not overwritten yet.
 */
async function measureOnce<P, R>(spec: RetainedSpec<P, R>): Promise<number> {
  const prepared = spec.prepare()
  await settleHeap()
  const before = heapBytes()
  const built = spec.build(prepared)
  // Held from the module, so that no liveness analysis lets it go before the measurement.
  held.push(built)
  await settleHeap()
  const after = heapBytes()
  held.length = 0
  spec.release?.(built, prepared)
  return after - before
}

const held: unknown[] = []
