/**
 * Memory per character and per marker: what a Tandem `TextBuffer` (and a `TextEditor`)
 * keeps for a document beside a bare `Y.Doc` holding the same text, and what a marker costs
 * on a buffer's layer beside the pair of `Y.RelativePosition`s it is made of, with Atom's
 * marker layer for reference. Figures are retained bytes on a collected heap (JavaScript heap
 * plus array buffers), the median of several builds.
 */
import * as prng from 'lib0/prng'
import * as Y from 'yjs'
import { TextBuffer } from '../../packages/buffer/src/index.js'
import { TextEditor } from '../../packages/editor/src/index.js'
import { type AtomMarkerMemory, measureAtomMarkers } from '../atom-marker-memory.js'
import { defineSuite, type SuiteBuilder } from '../harness.js'
import { markerDocument, markerSpecs } from '../marker-workload.js'
import { buildFragmentedDoc, charsLabel, copyDoc, TEXT_NAME } from '../peers.js'
import { type RetainedBytes, retainedBytes, summarize } from '../retained-memory.js'

/**
 * Characters measured at once, in copies of the document: the heap varies by a few hundred
 * kilobytes between collections, which would swamp one small document's figure.
 */
const CHARS_PER_MEASUREMENT = 4_000_000
const QUICK_CHARS_PER_MEASUREMENT = 400_000

/** Spread of repeats from which a figure is named in the suite's note. */
const NOTED_SPREAD = 0.01

/** Seeds of the marker suite's document and markers (the Atom child rebuilds them). */
const DOCUMENT_SEED = 1
const MARKER_SEED = 2

export default defineSuite({
  name: 'memory',
  description: 'bytes per character and per marker: TextBuffer and TextEditor vs a bare Y.Doc',
  async define(s) {
    const repeats = s.quick ? 1 : 5
    const spreads: string[] = []
    const record = (name: string, figure: RetainedBytes) => {
      if (figure.spread >= NOTED_SPREAD)
        spreads.push(`${name} ${(figure.spread * 100).toFixed(1)}%`)
      return figure
    }
    for (const length of s.quick ? [10_000] : [100_000, 1_000_000]) {
      await perCharacter(s, length, repeats, record)
    }
    const documentLength = s.quick ? 20_000 : 200_000
    for (const count of s.quick ? [1_000] : [10_000, 100_000]) {
      await perMarker(s, documentLength, count, repeats, record)
    }
    const noisy = spreads.length === 0 ? 'none' : spreads.join(', ')
    s.note(
      `median of ${repeats} build${repeats === 1 ? '' : 's'} after a warm-up build; figures ` +
        `whose repeats spread (largest - smallest) / median by ${NOTED_SPREAD * 100}% or more: ` +
        noisy,
    )
  },
})

type Recorder = (name: string, figure: RetainedBytes) => RetainedBytes

/**
 * Bytes per character of a bare Y.Doc, a TextBuffer and a TextEditor, on a fragmented
 * document of `length` characters and on one made by a single insert of the same text.
 */
async function perCharacter(
  s: SuiteBuilder,
  length: number,
  repeats: number,
  record: Recorder,
): Promise<void> {
  const label = charsLabel(length)
  const copies = Math.ceil((s.quick ? QUICK_CHARS_PER_MEASUREMENT : CHARS_PER_MEASUREMENT) / length)
  const { update, items } = buildFragmentedDoc({ length, quick: s.quick, progress: s.progress })
  const content = copyDoc(update).text.toString()
  const shapes = [
    {
      shape: `fragmented (${items.toLocaleString('en-US')} items)`,
      doc: () => copyDoc(update).doc,
    },
    {
      shape: 'one insert',
      doc: () => {
        const doc = new Y.Doc()
        doc.getText(TEXT_NAME).insert(0, freshCopy(content))
        return doc
      },
    },
  ]
  for (const { shape, doc } of shapes) {
    const name = `${label}, ${shape}`
    s.progress(`measuring ${name}`)
    const bare = record(
      `${label} ${shape} Y.Doc`,
      await retainedBytes({ prepare: () => null, build: () => times(copies, doc) }, repeats),
    )
    const buffer = record(
      `${label} ${shape} TextBuffer`,
      await retainedBytes(
        {
          prepare: () => null,
          build: () => times(copies, () => new TextBuffer({ doc: doc(), textName: TEXT_NAME })),
          release: (built) => {
            for (const b of built) b.destroy()
          },
        },
        repeats,
      ),
    )
    const editor = record(
      `${label} ${shape} TextEditor`,
      await retainedBytes(
        {
          prepare: () => null,
          build: () => times(copies, () => new TextEditor({ doc: doc(), textName: TEXT_NAME })),
          release: (built) => {
            for (const e of built) e.destroy()
          },
        },
        repeats,
      ),
    )
    const perChar = (figure: RetainedBytes) => figure.median / (copies * length)
    s.report({ name: `${name}: Y.Doc`, value: perChar(bare), unit: 'B/char' })
    s.report({ name: `${name}: TextBuffer`, value: perChar(buffer), unit: 'B/char' })
    s.report({ name: `${name}: TextEditor`, value: perChar(editor), unit: 'B/char' })
    s.report({
      name: `${name}: TextBuffer / Y.Doc`,
      value: buffer.median / bare.median,
      unit: 'x',
    })
    s.report({
      name: `${name}: TextEditor / Y.Doc`,
      value: editor.median / bare.median,
      unit: 'x',
    })
  }
}

/**
 * Bytes per marker of `count` markers on a TextBuffer's layer, of as many pairs of relative
 * positions kept beside a bare Y.Doc, and of Atom's marker layer (in child processes).
 */
async function perMarker(
  s: SuiteBuilder,
  documentLength: number,
  count: number,
  repeats: number,
  record: Recorder,
): Promise<void> {
  const label = `${count.toLocaleString('en-US')} markers`
  s.progress(`measuring ${label}`)
  const text = markerDocument(prng.create(DOCUMENT_SEED), documentLength)
  const specs = markerSpecs(prng.create(MARKER_SEED), text, count)
  const tandem = record(
    `${label} TextBuffer layer`,
    await retainedBytes(
      {
        prepare: () => new TextBuffer(text),
        build: (buffer) => {
          const layer = buffer.addMarkerLayer()
          for (const spec of specs) layer.markRange(spec.range, spec.options)
          return layer
        },
        release: (_, buffer) => buffer.destroy(),
      },
      repeats,
    ),
  )
  const pairs = record(
    `${label} relative positions`,
    await retainedBytes(
      {
        prepare: () => {
          const ytext = new Y.Doc().getText(TEXT_NAME)
          ytext.insert(0, text)
          return ytext
        },
        build: (ytext) =>
          specs.map((spec) => ({
            start: Y.createRelativePositionFromTypeIndex(ytext, spec.start, 0),
            end: Y.createRelativePositionFromTypeIndex(ytext, spec.end, -1),
          })),
      },
      repeats,
    ),
  )
  const job = {
    documentLength,
    documentSeed: DOCUMENT_SEED,
    markers: count,
    markerSeed: MARKER_SEED,
  }
  const atom: AtomMarkerMemory[] = []
  for (let i = 0; i < repeats; i++) atom.push(await measureAtomMarkers(job))
  const atomJs = record(`${label} Atom JS`, summarize(atom.map((m) => m.jsBytes)))
  const native = atom.every((m) => m.nativeBytes !== null)
  const atomTotal = record(
    `${label} Atom total`,
    summarize(atom.map((m) => m.jsBytes + (m.nativeBytes ?? 0))),
  )

  const perMarker = (figure: RetainedBytes) => figure.median / count
  s.report({ name: `${label}: TextBuffer layer`, value: perMarker(tandem), unit: 'B/marker' })
  s.report({
    name: `${label}: Y.Doc + relative-position pairs`,
    value: perMarker(pairs),
    unit: 'B/marker',
  })
  s.report({ name: `${label}: Atom layer, JS heap`, value: perMarker(atomJs), unit: 'B/marker' })
  if (native) {
    s.report({
      name: `${label}: Atom layer, JS heap + native`,
      value: perMarker(atomTotal),
      unit: 'B/marker',
    })
  }
  s.report({
    name: `${label}: TextBuffer layer / relative-position pairs`,
    value: tandem.median / pairs.median,
    unit: 'x',
  })
  s.report({
    name: `${label}: TextBuffer layer / Atom layer${native ? '' : ' (JS heap only)'}`,
    value: tandem.median / (native ? atomTotal.median : atomJs.median),
    unit: 'x',
  })
}

/** `count` results of `make`. */
function times<T>(count: number, make: () => T): T[] {
  return Array.from({ length: count }, make)
}

/**
 * A copy of `text` that shares no memory with it, so that a document built from it owns its
 * text. Joining makes a new flat string; no array buffer is involved, whose freeing the heap
 * figures would see late.
 */
function freshCopy(text: string): string {
  return text.split('\n').join('\n')
}
