/**
 * Real editing traces for benchmarks, read from `shared/traces` next to the repository
 * (`<repo>/../shared/traces/*.json.gz`; `TANDEM_TRACES_DIR` overrides the folder).
 *
 * The files count positions and lengths in Unicode code points; Yjs and this project count
 * UTF-16 code units, so patches are converted on load. Every trace is replayed once on a
 * chunked string after conversion and must reproduce its `endContent`, so a benchmark never
 * runs on a misconverted trace.
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'

/** The traces shipped in `shared/traces`. */
export const TRACE_NAMES = ['automerge-paper', 'seph-blog1', 'rustcode', 'sveltecomponent'] as const

/** Name of one shipped trace. */
export type TraceName = (typeof TRACE_NAMES)[number]

/** Number of patches `loadTrace(name, {quick: true})` keeps (rounded up to a whole txn). */
export const QUICK_PATCHES = 5_000

/**
 * One edit in UTF-16 code units: delete `del` units at `pos`, then insert `text` at `pos`.
 * Example: `{pos: 3, del: 1, text: 'ab'}` turns `'xyz_w'` into `'xyzabw'`.
 */
export interface TracePatch {
  readonly pos: number
  readonly del: number
  readonly text: string
}

/** A trace ready to replay: apply `patches` in order to `startContent` to get `endContent`. */
export interface Trace {
  readonly name: TraceName
  readonly startContent: string
  /** Content after all of `patches` (for a prefix, after the prefix). */
  readonly endContent: string
  /** Every patch, in application order, UTF-16 offsets. */
  readonly patches: readonly TracePatch[]
  /** The same patch objects grouped by the trace's transactions (a multi-cursor edit is one). */
  readonly txns: readonly (readonly TracePatch[])[]
  /** Whether the trace has characters outside the BMP (surrogate pairs in JS strings). */
  readonly hasAstral: boolean
  /** False when this is a prefix (`quick` or `limit`). */
  readonly complete: boolean
}

/** Options for {@link loadTrace}. */
export interface LoadTraceOptions {
  /** Keep only about the first {@link QUICK_PATCHES} patches (for CI). */
  readonly quick?: boolean
  /** Keep only the first `limit` patches, rounded up to a whole transaction. */
  readonly limit?: number
}

/** The JSON shape of a trace file. */
export interface RawTrace {
  readonly startContent: string
  readonly endContent: string
  readonly txns: readonly { readonly time?: string; readonly patches: readonly RawPatch[] }[]
}

/** `[position, numDeleted, insertedText]`, in code points. */
export type RawPatch = readonly [number, number, string]

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The folder the trace files are read from. */
export function tracesDir(): string {
  return process.env.TANDEM_TRACES_DIR ?? resolve(REPO_ROOT, '..', 'shared', 'traces')
}

const fullTraces = new Map<TraceName, Trace>()
const prefixes = new Map<string, Trace>()

/**
 * Loads a trace, converted to UTF-16 offsets and verified against its `endContent`.
 * Loading and verification happen once per process; later calls are cached.
 * Example: `for (const p of loadTrace('rustcode', {quick}).patches) apply(p.pos, p.del, p.text)`.
 */
export function loadTrace(name: TraceName, options: LoadTraceOptions = {}): Trace {
  if (!(TRACE_NAMES as readonly string[]).includes(name)) {
    throw new RangeError(`unknown trace ${JSON.stringify(name)}; known: ${TRACE_NAMES.join(', ')}`)
  }
  let full = fullTraces.get(name)
  if (full === undefined) {
    full = convertTrace(name, readRawTrace(name))
    fullTraces.set(name, full)
  }
  const limit = options.limit ?? (options.quick === true ? QUICK_PATCHES : undefined)
  if (limit === undefined || limit >= full.patches.length) return full
  if (!Number.isInteger(limit) || limit < 0) {
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`)
  }
  const key = `${name}:${limit}`
  let prefix = prefixes.get(key)
  if (prefix === undefined) {
    prefix = takePrefix(full, limit)
    prefixes.set(key, prefix)
  }
  return prefix
}

function readRawTrace(name: TraceName): RawTrace {
  const file = resolve(tracesDir(), `${name}.json.gz`)
  if (!existsSync(file)) {
    throw new Error(
      `editing trace not found: ${file} (traces live in shared/traces beside the repository)`,
    )
  }
  const raw: unknown = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'))
  if (!isRawTrace(raw)) throw new Error(`${file} is not a trace {startContent, endContent, txns}`)
  return raw
}

function isRawTrace(value: unknown): value is RawTrace {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return (
    typeof v.startContent === 'string' && typeof v.endContent === 'string' && Array.isArray(v.txns)
  )
}

const SURROGATE = /[\uD800-\uDFFF]/

/**
 * Converts a parsed trace from code points to UTF-16 units and replays it to check the
 * result. Throws when a patch is malformed or out of range, or when the replay does not
 * reproduce `endContent`. Exported for tests of the conversion on synthetic traces.
 */
export function convertTrace(name: TraceName, raw: RawTrace): Trace {
  let hasAstral = SURROGATE.test(raw.startContent)
  for (const txn of raw.txns) {
    for (const patch of txn.patches) {
      if (!Array.isArray(patch) || patch.length !== 3) {
        throw new Error(`trace ${name}: malformed patch ${JSON.stringify(patch)}`)
      }
      if (!hasAstral && SURROGATE.test(patch[2])) hasAstral = true
    }
  }
  // Without surrogates, code points and UTF-16 units coincide; the replay still checks.
  const doc = new ChunkedText(raw.startContent, hasAstral)
  const patches: TracePatch[] = []
  const txns: TracePatch[][] = []
  for (let t = 0; t < raw.txns.length; t++) {
    const group: TracePatch[] = []
    for (const [pos, del, text] of raw.txns[t]!.patches) {
      if (!isCount(pos) || !isCount(del) || typeof text !== 'string' || pos + del > doc.points) {
        throw new Error(
          `trace ${name}: txn ${t} has a bad or out-of-range patch [${pos}, ${del}, ...] ` +
            `(document has ${doc.points} code points)`,
        )
      }
      const pos16 = doc.toUtf16(pos)
      const del16 = del === 0 ? 0 : doc.toUtf16(pos + del) - pos16
      doc.splice(pos16, del16, text)
      const converted: TracePatch = { pos: pos16, del: del16, text }
      patches.push(converted)
      group.push(converted)
    }
    txns.push(group)
  }
  const result = doc.toString()
  if (result !== raw.endContent) {
    throw new Error(
      `trace ${name} does not replay to its endContent: lengths ${result.length} vs ` +
        `${raw.endContent.length}, first difference at offset ${firstDifference(result, raw.endContent)}`,
    )
  }
  return {
    name,
    startContent: raw.startContent,
    endContent: raw.endContent,
    patches,
    txns,
    hasAstral,
    complete: true,
  }
}

function takePrefix(full: Trace, limit: number): Trace {
  const txns: (readonly TracePatch[])[] = []
  let count = 0
  for (const txn of full.txns) {
    if (count >= limit) break
    txns.push(txn)
    count += txn.length
  }
  const patches = full.patches.slice(0, count)
  const doc = new ChunkedText(full.startContent, false)
  for (const p of patches) doc.splice(p.pos, p.del, p.text)
  return { ...full, patches, txns, endContent: doc.toString(), complete: false }
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i
  return n
}

const CHUNK_TARGET = 512
const CHUNK_MAX = 1024

/**
 * A string kept as chunks of at most {@link CHUNK_MAX} UTF-16 units, with each chunk's length
 * in code points when `countPoints` is set. An edit rewrites one or a few chunks, never the
 * whole string, and a cached cursor makes the local edits of a trace O(1) to locate.
 */
class ChunkedText {
  /** Total length in code points (equal to `units` without `countPoints`). */
  points = 0
  /** Total length in UTF-16 units. */
  units = 0
  private readonly chunks: string[] = []
  private readonly chunkPoints: number[] = []
  // A cursor on one chunk: its index and where it starts in both units.
  private at = 0
  private atUnits = 0
  private atPoints = 0

  constructor(
    text: string,
    private readonly countPoints: boolean,
  ) {
    this.chunks.push('')
    this.chunkPoints.push(0)
    this.splice(0, 0, text)
  }

  /** UTF-16 offset of code point offset `cp` (0 <= cp <= points). */
  toUtf16(cp: number): number {
    if (!this.countPoints) return cp
    this.seekPoints(cp)
    const chunk = this.chunks[this.at]!
    const offset = cp - this.atPoints
    if (this.chunkPoints[this.at] === chunk.length) return this.atUnits + offset
    return this.atUnits + unitsOfPoints(chunk, 0, offset)
  }

  /** Deletes `del` units at `pos` and inserts `text` there; both ends are in range. */
  splice(pos: number, del: number, text: string): void {
    this.seekUnits(pos)
    const i = this.at
    const offset = pos - this.atUnits
    let chunk = this.chunks[i]!
    // Code points this edit adds to chunk i, and to the whole text.
    let chunkDelta = 0
    let totalDelta = 0
    if (del > 0) {
      const take = Math.min(del, chunk.length - offset)
      if (this.countPoints) chunkDelta -= pointCount(chunk, offset, offset + take)
      chunk = chunk.slice(0, offset) + chunk.slice(offset + take)
      totalDelta = chunkDelta
      let rest = del - take
      let j = i + 1
      while (rest > 0) {
        const next = this.chunks[j]
        if (next === undefined) throw new RangeError(`delete of ${del} at ${pos} is out of range`)
        const cut = Math.min(rest, next.length)
        const cutPoints = this.countPoints ? pointCount(next, 0, cut) : cut
        this.chunkPoints[j]! -= cutPoints
        totalDelta -= cutPoints
        this.chunks[j] = next.slice(cut)
        rest -= cut
        j++
      }
      this.units -= del
    }
    if (text.length > 0) {
      chunk = chunk.slice(0, offset) + text + chunk.slice(offset)
      if (this.countPoints) {
        const added = pointCount(text, 0, text.length)
        chunkDelta += added
        totalDelta += added
      }
      this.units += text.length
    }
    this.chunks[i] = chunk
    if (this.countPoints) {
      this.chunkPoints[i]! += chunkDelta
      this.points += totalDelta
    } else {
      this.chunkPoints[i] = chunk.length
      this.points = this.units
    }
    if (del > 0) this.dropEmptyAfter(i)
    if (chunk.length > CHUNK_MAX) this.split(i)
    else if (chunk.length === 0) this.dropEmpty(i)
  }

  toString(): string {
    return this.chunks.join('')
  }

  private seekUnits(pos: number): void {
    while (pos < this.atUnits) this.stepBack()
    while (pos > this.atUnits + this.chunks[this.at]!.length && this.at < this.chunks.length - 1) {
      this.stepForward()
    }
  }

  private seekPoints(cp: number): void {
    while (cp < this.atPoints) this.stepBack()
    while (cp > this.atPoints + this.chunkPoints[this.at]! && this.at < this.chunks.length - 1) {
      this.stepForward()
    }
  }

  private stepBack(): void {
    this.at--
    this.atUnits -= this.chunks[this.at]!.length
    this.atPoints -= this.chunkPoints[this.at]!
  }

  private stepForward(): void {
    this.atUnits += this.chunks[this.at]!.length
    this.atPoints += this.chunkPoints[this.at]!
    this.at++
  }

  /** Removes the chunks after `i` that a delete emptied (they are contiguous). */
  private dropEmptyAfter(i: number): void {
    let end = i + 1
    while (end < this.chunks.length && this.chunks[end]!.length === 0) end++
    if (end > i + 1) {
      this.chunks.splice(i + 1, end - i - 1)
      this.chunkPoints.splice(i + 1, end - i - 1)
    }
  }

  /** Removes empty chunk `i` (the cursor's chunk) unless it is the only one. */
  private dropEmpty(i: number): void {
    if (this.chunks.length === 1) return
    this.chunks.splice(i, 1)
    this.chunkPoints.splice(i, 1)
    // The removed chunk was empty, so the next chunk starts where it did.
    if (this.at >= this.chunks.length) this.stepBack()
  }

  /** Splits an oversized chunk `i` into pieces of about {@link CHUNK_TARGET} units. */
  private split(i: number): void {
    const chunk = this.chunks[i]!
    const pieces: string[] = []
    const piecePoints: number[] = []
    let start = 0
    while (start < chunk.length) {
      let end = Math.min(start + CHUNK_TARGET, chunk.length)
      // Never separate the halves of a surrogate pair.
      if (end < chunk.length && isHigh(chunk.charCodeAt(end - 1)) && isLow(chunk.charCodeAt(end))) {
        end++
      }
      pieces.push(chunk.slice(start, end))
      piecePoints.push(this.countPoints ? pointCount(chunk, start, end) : end - start)
      start = end
    }
    this.chunks.splice(i, 1, ...pieces)
    this.chunkPoints.splice(i, 1, ...piecePoints)
  }
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff
}

/** Code points in `s.slice(from, to)`; a lone surrogate counts as one. */
function pointCount(s: string, from: number, to: number): number {
  let n = to - from
  for (let i = from; i < to - 1; i++) {
    if (isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1))) {
      n--
      i++
    }
  }
  return n
}

/** UTF-16 units spanned by `points` code points of `s` starting at unit `from`. */
function unitsOfPoints(s: string, from: number, points: number): number {
  let i = from
  for (let n = 0; n < points && i < s.length; n++) {
    i += isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1)) ? 2 : 1
  }
  return i - from
}

/** What `replayOnTextBuffer` needs of a Tandem `TextBuffer`. */
export interface PatchableBuffer<P> {
  positionForCharacterIndex(offset: number): P
  setTextInRange(range: [P, P], text: string, options: { normalizeLineEndings: boolean }): unknown
}

/** Applies every patch of `trace` with `setTextInRange`, positions converted by the buffer. */
export function replayOnTextBuffer<P>(trace: Trace, buffer: PatchableBuffer<P>): void {
  for (const patch of trace.patches) {
    const start = buffer.positionForCharacterIndex(patch.pos)
    const end = patch.del === 0 ? start : buffer.positionForCharacterIndex(patch.pos + patch.del)
    buffer.setTextInRange([start, end], patch.text, { normalizeLineEndings: false })
  }
}
