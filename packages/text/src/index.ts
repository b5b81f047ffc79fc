/**
 * `@tandem/text`: the value types and event primitives every other package builds on.
 * Point and Range follow Atom's text-buffer semantics; Emitter, Disposable and
 * CompositeDisposable follow Atom's event-kit.
 *
 * @example import { Point, Range, Emitter } from '@tandem/text'
 *
 * @module @tandem/text
 */

export { CompositeDisposable } from './composite-disposable.js'
export { Disposable, type DisposableLike } from './disposable.js'
export { type EmitArgs, Emitter, type EventHandler, type EventName } from './emitter.js'
export { Point, type PointLike, type PointObject, type PointTuple, toPoint } from './point.js'
export { Range, type RangeLike, type RangeObject, type RangeTuple } from './range.js'
