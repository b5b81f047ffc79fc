/**
 * Atom's text buffer (`@pulsar-edit/text-buffer`, a devDependency of `@tandem/buffer`) as a
 * peer for marker suites. It is CommonJS with a native marker index, so it is loaded with
 * `createRequire` from the buffer package, and typed here only as far as the suites use it.
 */
import { createRequire } from 'node:module'

/** A point as Atom returns it. */
export interface AtomPoint {
  readonly row: number
  readonly column: number
}

/** A range as Atom returns it. */
export interface AtomRange {
  readonly start: AtomPoint
  readonly end: AtomPoint
}

/** `[row, column]`, which Atom accepts wherever it takes a point. */
export type PointTuple = readonly [number, number]

/** `[start, end]`, which Atom accepts wherever it takes a range. */
export type RangeTuple = readonly [PointTuple, PointTuple]

/** Options of `markRange` that both Atom and Tandem take. */
export interface AtomMarkOptions {
  readonly exclusive?: boolean
  readonly invalidate?: 'never' | 'surround' | 'overlap' | 'inside' | 'touch'
}

/** Conditions of `findMarkers` that both take; a type alias, so Tandem's index signature fits. */
export type AtomFindParams = {
  readonly containsPoint?: PointTuple
  readonly intersectsRange?: RangeTuple
  readonly startsInRange?: RangeTuple
}

/** An Atom marker. */
export interface AtomMarker {
  readonly id: number
  getRange(): AtomRange
  isValid(): boolean
}

/** An Atom marker layer. */
export interface AtomMarkerLayer {
  markRange(range: RangeTuple, options?: AtomMarkOptions): AtomMarker
  findMarkers(params: AtomFindParams): AtomMarker[]
  getMarkers(): AtomMarker[]
  getMarkerCount(): number
  destroy(): void
}

/** An Atom text buffer. */
export interface AtomTextBuffer {
  getText(): string
  getLength(): number
  setTextInRange(range: RangeTuple, text: string): AtomRange
  addMarkerLayer(): AtomMarkerLayer
  destroy(): void
}

/** Atom's `TextBuffer` class. */
export type AtomTextBufferClass = new (params: { text: string }) => AtomTextBuffer

let loaded: AtomTextBufferClass | undefined

/**
 * Atom's `TextBuffer` class, loaded on first use (it takes about 100 ms).
 * Example: `const buffer = new (atomTextBuffer())({ text: 'hello' })`.
 */
export function atomTextBuffer(): AtomTextBufferClass {
  if (loaded === undefined) {
    const require = createRequire(new URL('../packages/buffer/package.json', import.meta.url))
    loaded = require('@pulsar-edit/text-buffer') as AtomTextBufferClass
  }
  return loaded
}
