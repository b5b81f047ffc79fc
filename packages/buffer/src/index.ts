/**
 * @tandem/buffer: a text buffer over a Yjs Y.Text, with Atom's reading and editing API,
 * a line index kept in step with every change, markers anchored by Yjs relative positions,
 * and undo that only ever reverts this buffer's own changes.
 *
 * @module @tandem/buffer
 */
export type {
  BufferChange,
  BufferChangeEvent,
  BufferStoppedChangingEvent,
  EditFollower,
} from './buffer-change.js'
export type { FindMarkersParams } from './find-markers.js'
export { ItemIndex, type TextChange } from './item-index.js'
export type { LineEnding } from './line-store.js'
export {
  Marker,
  type MarkerChangeEvent,
  type MarkerOwner,
  type MarkOptions,
  type RelativeRange,
} from './marker.js'
export { type LayerMarkerChange, MarkerLayer, type MarkerLayerOptions } from './marker-layer.js'
export type { InvalidationStrategy } from './marker-rules.js'
export type { ScanCallback, ScanResult } from './scan.js'
export { type SetTextOptions, TextBuffer, type TextBufferOptions } from './text-buffer.js'
export type { SavedUndoHistory, SavedUndoStep, UndoStateProvider } from './undo-history.js'
