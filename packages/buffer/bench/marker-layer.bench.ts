/**
 * One marker layer of 1,000 to 100,000 markers in Tandem's TextBuffer beside the same layer
 * in Atom's text buffer (`@pulsar-edit/text-buffer`, whose marker index is native): making
 * the markers, seeded local edits (and the same edits with no markers, so the markers' own
 * cost shows), `findMarkers` queries and reading every range. Both get the same document,
 * markers, edits and queries, and must agree on every marker's range and validity after the
 * edits and on every query's answer.
 */
import * as prng from 'lib0/prng'
import {
  type AtomFindParams,
  type AtomMarker,
  type AtomMarkerLayer,
  type AtomRange,
  type AtomTextBuffer,
  atomTextBuffer,
} from '../../../bench/atom-text-buffer.js'
import { type CaseRef, defineSuite, type SuiteBuilder } from '../../../bench/harness.js'
import {
  type EditScript,
  editScript,
  type MarkerSpec,
  markerDocument,
  markerQueries,
  markerSpecs,
} from '../../../bench/marker-workload.js'
import { type Marker, type MarkerLayer, TextBuffer } from '../src/index.js'

/** Ranges one run of a read case reads at least, in passes over the whole layer. */
const READS = 100_000

/** What every size shares: the document, the edits and the queries. */
interface Workload {
  readonly text: string
  readonly script: EditScript
  readonly queries: readonly AtomFindParams[]
}

/** A Tandem buffer with one layer of markers, in the order of their specs. */
interface TandemState {
  readonly buffer: TextBuffer
  readonly layer: MarkerLayer
  readonly markers: readonly Marker[]
}

/** An Atom buffer with one layer of markers, in the order of their specs. */
interface AtomState {
  readonly buffer: AtomTextBuffer
  readonly layer: AtomMarkerLayer
  readonly markers: readonly AtomMarker[]
}

/** The cases of one marker count, Tandem's and Atom's. */
interface SizeCases {
  readonly count: number
  readonly label: string
  readonly create: Pair
  readonly edit: Pair
  readonly query: Pair
  readonly read: Pair
}

interface Pair {
  readonly tandem: CaseRef
  readonly atom: CaseRef
}

export default defineSuite({
  name: 'buffer-marker-layer',
  description: "a marker layer under edits and queries: Tandem's TextBuffer vs Atom's text-buffer",
  // The 100,000-marker cases take seconds to set up; give each group room for its runs.
  measure: { warmups: 1, budgetMs: 25_000 },
  define(s) {
    const counts = s.quick ? [100, 1_000] : [1_000, 10_000, 100_000]
    const gen = prng.create(1)
    const text = markerDocument(gen, s.quick ? 20_000 : 200_000)
    const script = editScript(gen, text, s.quick ? 200 : 1_000)
    const queries = markerQueries(gen, script.endText, s.quick ? 300 : 1_000)
    const work: Workload = { text, script, queries }
    const sizes = counts.map((count) => sizeCases(s, work, count))
    const bare = bareEditCases(s, work)

    s.compare({ name: 'edits, no markers: Tandem / Atom', candidate: bare.tandem, peer: bare.atom })
    for (const size of sizes) {
      const row = (what: string, pair: Pair, perOp = false) =>
        s.compare({
          name: `${size.label}: ${what}: Tandem / Atom`,
          candidate: pair.tandem,
          peer: pair.atom,
          perOp,
        })
      row('markRange', size.create, true)
      row('edits', size.edit)
      row('findMarkers', size.query)
      row('read all ranges', size.read, true)
      s.compare({
        name: `${size.label}: Tandem edits / no markers`,
        candidate: size.edit.tandem,
        peer: bare.tandem,
      })
      s.compare({
        name: `${size.label}: Atom edits / no markers`,
        candidate: size.edit.atom,
        peer: bare.atom,
      })
    }
    for (let i = 1; i < sizes.length; i++) {
      const small = sizes[i - 1]!
      const large = sizes[i]!
      const span = `${large.label} vs ${small.label}`
      for (const side of ['tandem', 'atom'] as const) {
        const who = side === 'tandem' ? 'Tandem' : 'Atom'
        s.scaling({
          name: `${who} markRange per marker, ${span}`,
          small: small.create[side],
          large: large.create[side],
          perOp: true,
        })
        s.scaling({
          name: `${who} edits, ${span}`,
          small: small.edit[side],
          large: large.edit[side],
        })
        s.scaling({
          name: `${who} findMarkers, ${span}`,
          small: small.query[side],
          large: large.query[side],
        })
      }
    }
    const series = (name: string, pick: (size: SizeCases) => CaseRef) => ({
      name,
      points: sizes.map((size) => ({ x: size.count, case: pick(size) })),
    })
    s.plot({
      name: 'marker-layer-edits',
      title: `${script.edits.length} edits with a layer of markers`,
      xLabel: 'markers',
      series: [
        series('Tandem TextBuffer', (size) => size.edit.tandem),
        series('Atom text-buffer', (size) => size.edit.atom),
      ],
    })
    s.plot({
      name: 'marker-layer-create',
      title: 'markRange, per marker',
      xLabel: 'markers',
      perOp: true,
      series: [
        series('Tandem TextBuffer', (size) => size.create.tandem),
        series('Atom text-buffer', (size) => size.create.atom),
      ],
    })
    s.note(
      `${text.length.toLocaleString('en-US')}-character document; ${script.edits.length} edits ` +
        `per run; ${queries.length} queries per run (containsPoint, intersectsRange, ` +
        'startsInRange in turn). After the edits, every marker has the same range and validity ' +
        'in both, and every query the same answer (checked for each size).',
    )
  },
})

/** Cases and a persistent edited pair of layers for `count` markers. */
function sizeCases(s: SuiteBuilder, work: Workload, count: number): SizeCases {
  const label = `${count.toLocaleString('en-US')} markers`
  const specs = markerSpecs(prng.create(count), work.text, count)
  s.progress(`${label}: building both layers and applying the edits`)
  const edited = {
    tandem: tandemWithMarkers(work.text, specs),
    atom: atomWithMarkers(work.text, specs),
  }
  applyTandemEdits(edited.tandem.buffer, work.script)
  applyAtomEdits(edited.atom.buffer, work.script)
  checkAgreement(edited.tandem, edited.atom, work.script.endText, label)
  const expectedHits = checkQueries(edited.tandem, edited.atom, work.queries, label)

  const editCheck = (buffer: { getText(): string }) => {
    if (buffer.getText() !== work.script.endText) throw new Error(`${label}: edits diverged`)
  }
  const hitsCheck = (_: unknown, hits: unknown) => {
    if (hits !== expectedHits) throw new Error(`${label}: ${hits} query hits, ${expectedHits} due`)
  }
  const edits = work.script.edits.length
  // Reading is fast: enough passes over the layer that a run reads at least READS ranges.
  const passes = Math.ceil(READS / count)
  const expectedSum = passes * readTandem(edited.tandem.layer, 1)
  const readCheck = (_: unknown, sum: unknown) => {
    if (sum !== expectedSum) throw new Error(`${label}: range checksum ${sum}, ${expectedSum} due`)
  }
  return {
    count,
    label,
    create: {
      tandem: s.case({
        name: `${label}: Tandem markRange`,
        setup: () => {
          const buffer = new TextBuffer(work.text)
          return { buffer, layer: buffer.addMarkerLayer() }
        },
        run: ({ layer }) => markTandem(layer, specs),
        teardown: ({ buffer }) => buffer.destroy(),
        ops: count,
        opUnit: 'marker',
      }),
      atom: s.case({
        name: `${label}: Atom markRange`,
        setup: () => {
          const buffer = new (atomTextBuffer())({ text: work.text })
          return { buffer, layer: buffer.addMarkerLayer() }
        },
        run: ({ layer }) => markAtom(layer, specs),
        teardown: ({ buffer }) => buffer.destroy(),
        ops: count,
        opUnit: 'marker',
      }),
    },
    edit: {
      tandem: s.case({
        name: `${label}: Tandem edits`,
        setup: () => tandemWithMarkers(work.text, specs),
        run: ({ buffer }) => applyTandemEdits(buffer, work.script),
        check: ({ buffer }) => editCheck(buffer),
        teardown: ({ buffer }) => buffer.destroy(),
        ops: edits,
        opUnit: 'edit',
      }),
      atom: s.case({
        name: `${label}: Atom edits`,
        setup: () => atomWithMarkers(work.text, specs),
        run: ({ buffer }) => applyAtomEdits(buffer, work.script),
        check: ({ buffer }) => editCheck(buffer),
        teardown: ({ buffer }) => buffer.destroy(),
        ops: edits,
        opUnit: 'edit',
      }),
    },
    query: {
      tandem: s.case({
        name: `${label}: Tandem findMarkers`,
        setup: () => ({ layer: edited.tandem.layer, queries: copyQueries(work.queries) }),
        run: ({ layer, queries }) => queryTandem(layer, queries),
        check: hitsCheck,
        ops: work.queries.length,
        opUnit: 'query',
      }),
      atom: s.case({
        name: `${label}: Atom findMarkers`,
        setup: () => ({ layer: edited.atom.layer, queries: copyQueries(work.queries) }),
        run: ({ layer, queries }) => queryAtom(layer, queries),
        check: hitsCheck,
        ops: work.queries.length,
        opUnit: 'query',
      }),
    },
    read: {
      tandem: s.case({
        name: `${label}: Tandem read ranges`,
        setup: () => edited.tandem.layer,
        run: (layer) => readTandem(layer, passes),
        check: readCheck,
        ops: count * passes,
        opUnit: 'marker',
      }),
      atom: s.case({
        name: `${label}: Atom read ranges`,
        setup: () => edited.atom.layer,
        run: (layer) => readAtom(layer, passes),
        check: readCheck,
        ops: count * passes,
        opUnit: 'marker',
      }),
    },
  }
}

/** The edits on buffers without markers. */
function bareEditCases(s: SuiteBuilder, work: Workload): Pair {
  const check = (buffer: { getText(): string }) => {
    if (buffer.getText() !== work.script.endText) throw new Error('no markers: edits diverged')
  }
  const edits = work.script.edits.length
  return {
    tandem: s.case({
      name: 'no markers: Tandem edits',
      setup: () => new TextBuffer(work.text),
      run: (buffer) => applyTandemEdits(buffer, work.script),
      check,
      teardown: (buffer) => buffer.destroy(),
      ops: edits,
      opUnit: 'edit',
    }),
    atom: s.case({
      name: 'no markers: Atom edits',
      setup: () => new (atomTextBuffer())({ text: work.text }),
      run: (buffer) => applyAtomEdits(buffer, work.script),
      check,
      teardown: (buffer) => buffer.destroy(),
      ops: edits,
      opUnit: 'edit',
    }),
  }
}

// The timed loops are written once per implementation, so that neither shares call sites
// (and their type feedback) with the other.

function tandemWithMarkers(text: string, specs: readonly MarkerSpec[]): TandemState {
  const buffer = new TextBuffer(text)
  const layer = buffer.addMarkerLayer()
  return { buffer, layer, markers: markTandem(layer, specs) }
}

function atomWithMarkers(text: string, specs: readonly MarkerSpec[]): AtomState {
  const buffer = new (atomTextBuffer())({ text })
  const layer = buffer.addMarkerLayer()
  return { buffer, layer, markers: markAtom(layer, specs) }
}

function markTandem(layer: MarkerLayer, specs: readonly MarkerSpec[]): Marker[] {
  const markers: Marker[] = []
  for (const spec of specs) markers.push(layer.markRange(spec.range, spec.options))
  return markers
}

function markAtom(layer: AtomMarkerLayer, specs: readonly MarkerSpec[]): AtomMarker[] {
  const markers: AtomMarker[] = []
  for (const spec of specs) markers.push(layer.markRange(spec.range, spec.options))
  return markers
}

function applyTandemEdits(buffer: TextBuffer, script: EditScript): void {
  for (const edit of script.edits) buffer.setTextInRange(edit.range, edit.text)
}

function applyAtomEdits(buffer: AtomTextBuffer, script: EditScript): void {
  for (const edit of script.edits) buffer.setTextInRange(edit.range, edit.text)
}

/** Runs every query; returns the number of markers found, summed. */
function queryTandem(layer: MarkerLayer, queries: readonly AtomFindParams[]): number {
  let hits = 0
  for (const query of queries) hits += layer.findMarkers(query).length
  return hits
}

function queryAtom(layer: AtomMarkerLayer, queries: readonly AtomFindParams[]): number {
  let hits = 0
  for (const query of queries) hits += layer.findMarkers(query).length
  return hits
}

/** Reads every marker's range `passes` times; returns a checksum of the coordinates. */
function readTandem(layer: MarkerLayer, passes: number): number {
  let sum = 0
  for (let pass = 0; pass < passes; pass++) {
    for (const marker of layer.getMarkers()) sum += checksum(marker.getRange())
  }
  return sum
}

function readAtom(layer: AtomMarkerLayer, passes: number): number {
  let sum = 0
  for (let pass = 0; pass < passes; pass++) {
    for (const marker of layer.getMarkers()) sum += checksum(marker.getRange())
  }
  return sum
}

function checksum(range: AtomRange): number {
  return range.start.row + range.start.column + range.end.row + range.end.column
}

/**
 * Throws unless both buffers hold `text` and each marker has the same range and validity in
 * both. Both move markers by Atom's rules for local edits, so no marker is left out.
 */
function checkAgreement(tandem: TandemState, atom: AtomState, text: string, label: string): void {
  if (tandem.buffer.getText() !== text || atom.buffer.getText() !== text) {
    throw new Error(`${label}: the edited texts differ`)
  }
  if (tandem.layer.getMarkerCount() !== atom.layer.getMarkerCount()) {
    throw new Error(`${label}: ${tandem.layer.getMarkerCount()} vs ${atom.layer.getMarkerCount()}`)
  }
  for (let i = 0; i < tandem.markers.length; i++) {
    const ours = rangeText(tandem.markers[i]!.getRange())
    const theirs = rangeText(atom.markers[i]!.getRange())
    if (ours !== theirs) throw new Error(`${label}: marker ${i} is ${ours} here, ${theirs} in Atom`)
    if (tandem.markers[i]!.isValid() !== atom.markers[i]!.isValid()) {
      throw new Error(`${label}: marker ${i} is valid in one buffer only`)
    }
  }
}

/** Throws unless every query finds the same markers in both; returns the hits summed. */
function checkQueries(
  tandem: TandemState,
  atom: AtomState,
  queries: readonly AtomFindParams[],
  label: string,
): number {
  const tandemIndex = new Map<Marker, number>(tandem.markers.map((m, i) => [m, i]))
  const atomIndex = new Map<AtomMarker, number>(atom.markers.map((m, i) => [m, i]))
  let hits = 0
  for (const query of queries) {
    const ours = tandem.layer.findMarkers({ ...query }).map((m) => tandemIndex.get(m)!)
    const theirs = atom.layer.findMarkers({ ...query }).map((m) => atomIndex.get(m)!)
    const key = (found: number[]) => found.sort((a, b) => a - b).join(',')
    if (key(ours) !== key(theirs)) {
      throw new Error(`${label}: ${JSON.stringify(query)} finds other markers than in Atom`)
    }
    hits += ours.length
  }
  return hits
}

/**
 * Fresh copies of the queries, one run's worth: Atom's `findMarkers` deletes each condition
 * from the object it is given, so a query object answers only once.
 */
function copyQueries(queries: readonly AtomFindParams[]): AtomFindParams[] {
  return queries.map((query) => ({ ...query }))
}

function rangeText({ start, end }: AtomRange): string {
  return `(${start.row}, ${start.column}) - (${end.row}, ${end.column})`
}
