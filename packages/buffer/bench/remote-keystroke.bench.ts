/**
 * Remote keystrokes reaching a TextBuffer that holds 10,000 markers, beside the bare
 * `Y.applyUpdate` of the same updates, on fragmented documents of 100k and 1M characters:
 * the budget "a remote keystroke with 10,000 markers costs the same on a 100k- and a
 * 1M-character document".
 */
import * as prng from 'lib0/prng'
import * as Y from 'yjs'
import { type CaseRef, defineSuite, type SuiteBuilder } from '../../../bench/harness.js'
import {
  buildFragmentedDoc,
  charsLabel,
  copyDoc,
  PEER_ORIGIN,
  reportDocumentShape,
  TEXT_NAME,
  typeKeystrokes,
} from '../../../bench/peers.js'
import { type Marker, type MarkerLayer, TextBuffer } from '../src/index.js'

/** Markers on the buffer's one marker layer; every other one is empty. */
const MARKERS = 10_000
/** Longest non-empty marker, in characters. */
const MAX_MARKER_LENGTH = 200
/** Keystrokes per run, each applied as its own update. */
const KEYSTROKES = 500
/** Keystrokes per run in quick mode. */
const QUICK_KEYSTROKES = 200
/** Markers whose ranges the check compares with their Yjs relative positions. */
const SAMPLED_MARKERS = 250

/** A marker's ends in offsets. */
interface Span {
  readonly start: number
  readonly end: number
}

/** The two cases on one document size. */
interface KeystrokeCases {
  readonly label: string
  readonly buffer: CaseRef
  readonly bare: CaseRef
}

/** A fresh copy of the document, bound to a buffer whose layer holds the markers. */
interface BufferState {
  readonly doc: Y.Doc
  readonly buffer: TextBuffer
  readonly layer: MarkerLayer
}

export default defineSuite({
  name: 'buffer-remote-keystroke',
  description: 'remote keystrokes into a TextBuffer with 10,000 markers vs bare Y.applyUpdate',
  measure: { maxRuns: 9 },
  define(s) {
    const [smallLength, largeLength] = s.quick ? [20_000, 200_000] : [100_000, 1_000_000]
    const keystrokes = s.quick ? QUICK_KEYSTROKES : KEYSTROKES
    const small = keystrokeCases(s, smallLength, keystrokes)
    const large = keystrokeCases(s, largeLength, keystrokes)
    s.scaling({
      name: `TextBuffer, ${large.label} vs ${small.label}`,
      small: small.buffer,
      large: large.buffer,
      target: '<= 1.5',
      perOp: true,
    })
    s.scaling({
      name: `Y.applyUpdate, ${large.label} vs ${small.label}`,
      small: small.bare,
      large: large.bare,
      perOp: true,
    })
    for (const cases of [small, large]) {
      s.compare({
        name: `${cases.label}: TextBuffer / Y.applyUpdate`,
        candidate: cases.buffer,
        peer: cases.bare,
        target: '<= 5',
        perOp: true,
      })
    }
  },
})

/** The TextBuffer case and the bare Y.applyUpdate case on a built document of `length`. */
function keystrokeCases(s: SuiteBuilder, length: number, count: number): KeystrokeCases {
  const label = charsLabel(length)
  const built = buildFragmentedDoc({ length, quick: s.quick, progress: s.progress })
  const { update } = built
  reportDocumentShape(s, label, built)
  const gen = prng.create(length)
  const spans = markerSpans(gen, length)
  const keystrokes = typeKeystrokes(gen, update, count)
  const applyAll = (doc: Y.Doc) => {
    for (const u of keystrokes.updates) Y.applyUpdate(doc, u, PEER_ORIGIN)
  }
  const buffer = s.case({
    name: `${label}: TextBuffer`,
    setup: () => bufferWithMarkers(update, spans),
    run: ({ doc }) => applyAll(doc),
    check: (state) => checkBuffer(state, keystrokes.text),
    teardown: ({ buffer }) => buffer.destroy(),
    ops: count,
    opUnit: 'keystroke',
  })
  const bare = s.case({
    name: `${label}: Y.applyUpdate`,
    setup: () => copyDoc(update),
    run: ({ doc }) => applyAll(doc),
    check: ({ text }) => {
      if (text.toString() !== keystrokes.text) throw new Error(`${label}: Y.Text differs`)
    },
    ops: count,
    opUnit: 'keystroke',
  })
  return { label, buffer, bare }
}

/** Seeded marker ends spread over a text of `length`: empty and non-empty alternately. */
function markerSpans(gen: prng.PRNG, length: number): Span[] {
  const spans: Span[] = []
  for (let i = 0; i < MARKERS; i++) {
    const start = prng.int32(gen, 0, length)
    const size = i % 2 === 0 ? 0 : prng.int32(gen, 1, MAX_MARKER_LENGTH)
    spans.push({ start, end: Math.min(start + size, length) })
  }
  return spans
}

/** A fresh copy of the document bound to a TextBuffer, with a marker on each span. */
function bufferWithMarkers(update: Uint8Array, spans: readonly Span[]): BufferState {
  const { doc } = copyDoc(update)
  const buffer = new TextBuffer({ doc, textName: TEXT_NAME })
  const layer = buffer.addMarkerLayer()
  for (const { start, end } of spans) {
    const from = buffer.positionForCharacterIndex(start)
    layer.markRange([from, end === start ? from : buffer.positionForCharacterIndex(end)])
  }
  return { doc, buffer, layer }
}

/**
 * Throws unless the buffer holds the peer's text, as its Y.Text does, and every marker is
 * still there and valid (an insertion never invalidates the default `'overlap'` markers),
 * with a sample of them where Yjs resolves their relative positions.
 */
function checkBuffer({ doc, buffer, layer }: BufferState, expected: string): void {
  const text = buffer.getText()
  if (text !== buffer.ytext.toString()) throw new Error('the buffer differs from its Y.Text')
  if (text !== expected) throw new Error("the buffer differs from the peer's text")
  const markers = layer.getMarkers()
  if (markers.length !== MARKERS) throw new Error(`${MARKERS} markers became ${markers.length}`)
  const invalid = markers.filter((marker) => !marker.isValid()).length
  if (invalid > 0) throw new Error(`${invalid} markers were invalidated or destroyed`)
  const step = Math.floor(MARKERS / SAMPLED_MARKERS)
  for (let i = 0; i < MARKERS; i += step) checkAnchors(doc, buffer, markers[i]!)
}

/** Throws unless `marker`'s range is where Yjs puts its relative positions. */
function checkAnchors(doc: Y.Doc, buffer: TextBuffer, marker: Marker): void {
  const range = marker.getRange()
  const start = buffer.characterIndexForPosition(range.start)
  const end = buffer.characterIndexForPosition(range.end)
  const relative = marker.getRelativeRange()
  const anchoredStart = Y.createAbsolutePositionFromRelativePosition(relative.start, doc)?.index
  const anchoredEnd = Y.createAbsolutePositionFromRelativePosition(relative.end, doc)?.index
  if (start > end || start !== anchoredStart || end !== anchoredEnd) {
    throw new Error(
      `marker ${marker.id} spans ${start}..${end}, its relative positions ` +
        `${anchoredStart}..${anchoredEnd}`,
    )
  }
}
