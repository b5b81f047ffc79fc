/**
 * One remote keystroke reaching an editor that shows 100 remote peers, each with a caret and
 * a selection: the time to apply the update and bring every remote marker and decoration up
 * to date, beside the same editor with no peers and the bare `Y.applyUpdate` of the same
 * update, on fragmented documents of 100k, 1M and 10M characters. The budget: no cost
 * proportional to the document's length (each 10x step in length at most 1.5x per keystroke).
 *
 * The documents come from `buildFragmentedDoc`: the `automerge-paper` trace replayed (about
 * 104k characters, one client), cut to 100k, or grown by seeded pastes of 200 to 4,000
 * characters at random places, each edited with small inserts and deletes to keep the
 * trace's density of about 0.1 Yjs items per character, with a new client every 50,000
 * characters. That gives 10,878 items (1 client) at 100k, 104,176 items (19 clients) at 1M
 * and 1,041,359 items (282,007 of them deleted, 194 clients) at 10M, which takes about a
 * minute and a half to build. Every run starts from a fresh copy of the document, an untimed
 * setup that at 10M takes 5 to 25 seconds: most of it Yjs applying the encoded state, the rest
 * building the editor's indexes and display layer (about 450 MB of heap in all).
 *
 * Yjs itself costs more per keystroke at 10M, mostly in the state vectors every transaction
 * reads before and after (O(clients): 194 at 10M, 19 at 1M); the `Y.applyUpdate` scaling
 * rows show it beside the editor's.
 */
import { TextEditor } from '@tandem/editor'
import * as prng from 'lib0/prng'
import * as awarenessProtocol from 'y-protocols/awareness'
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
import { RemoteCursors } from '../src/remote-cursors.js'

/** Remote peers shown, each with a caret and a selection. */
const PEERS = 100
/** Keystrokes per run, each applied as its own update. */
const KEYSTROKES = 200
const QUICK_KEYSTROKES = 50
/** Document lengths, each 10x the one before. */
const LENGTHS = [100_000, 1_000_000, 10_000_000] as const
const QUICK_LENGTHS = [5_000, 50_000, 500_000] as const
/** Longest remote selection, in characters. */
const MAX_SELECTION = 200
/** Documents from this length on say when a run's setup starts and how long it took. */
const SLOW_SETUP_LENGTH = 2_000_000

/** Every peer's awareness state, encoded as it arrives from the network. */
type PeerStates = readonly Uint8Array[]

interface ViewerState {
  readonly doc: Y.Doc
  readonly editor: TextEditor
  readonly awareness: awarenessProtocol.Awareness
  readonly remote: RemoteCursors
}

interface SizeCases {
  readonly length: number
  readonly label: string
  readonly editor: CaseRef
  readonly alone: CaseRef
  readonly bare: CaseRef
}

export default defineSuite({
  name: 'collab-remote-peers',
  description:
    'a remote keystroke with 100 remote carets and selections shown vs bare Y.applyUpdate',
  // A round of runs sets up three copies of a 10M-character document, close to a minute: the
  // budget lets every case have its five runs.
  measure: { maxRuns: 9, budgetMs: 240_000 },
  define(s) {
    const keystrokes = s.quick ? QUICK_KEYSTROKES : KEYSTROKES
    const sizes = (s.quick ? QUICK_LENGTHS : LENGTHS).map((length) =>
      sizeCases(s, length, keystrokes),
    )
    for (let i = 1; i < sizes.length; i++) {
      const small = sizes[i - 1]!
      const large = sizes[i]!
      s.scaling({
        name: `editor with ${PEERS} peers, ${large.label} vs ${small.label}`,
        small: small.editor,
        large: large.editor,
        perOp: true,
        target: '<= 1.5',
      })
      s.scaling({
        name: `editor alone, ${large.label} vs ${small.label}`,
        small: small.alone,
        large: large.alone,
        perOp: true,
      })
      s.scaling({
        name: `Y.applyUpdate, ${large.label} vs ${small.label}`,
        small: small.bare,
        large: large.bare,
        perOp: true,
      })
    }
    for (const cases of sizes) {
      s.compare({
        name: `${cases.label}: editor with ${PEERS} peers / editor alone`,
        candidate: cases.editor,
        peer: cases.alone,
        perOp: true,
      })
      s.compare({
        name: `${cases.label}: editor with ${PEERS} peers / Y.applyUpdate`,
        candidate: cases.editor,
        peer: cases.bare,
        perOp: true,
      })
    }
    const series = (name: string, pick: (cases: SizeCases) => CaseRef) => ({
      name,
      points: sizes.map((cases) => ({ x: cases.length, case: pick(cases) })),
    })
    s.plot({
      name: 'remote-keystroke',
      title: `A remote keystroke with ${PEERS} peers shown`,
      xLabel: 'document characters',
      perOp: true,
      series: [
        series(`editor with ${PEERS} peers`, (cases) => cases.editor),
        series('editor alone', (cases) => cases.alone),
        series('bare Y.applyUpdate', (cases) => cases.bare),
      ],
    })
    s.note(`each of ${PEERS} peers shows a caret and a selection; ${keystrokes} keystrokes per run`)
  },
})

function sizeCases(s: SuiteBuilder, length: number, count: number): SizeCases {
  const label = charsLabel(length)
  const built = buildFragmentedDoc({ length, quick: s.quick, progress: s.progress })
  const { update } = built
  reportDocumentShape(s, label, built)
  const gen = prng.create(length)
  const states = peerStates(gen, built.text, length)
  built.doc.destroy()
  if (length >= SLOW_SETUP_LENGTH) s.progress(`${label}: typing ${count} keystrokes on a copy`)
  const keystrokes = typeKeystrokes(gen, update, count).updates
  const applyAll = (doc: Y.Doc) => {
    for (const u of keystrokes) Y.applyUpdate(doc, u, PEER_ORIGIN)
  }
  const setup = <S>(name: string, make: () => S): (() => S) => {
    if (length < SLOW_SETUP_LENGTH) return make
    return () => {
      const started = performance.now()
      s.progress(`${name}: setting up a run on a fresh copy of the document`)
      const state = make()
      s.progress(`${name}: set up in ${((performance.now() - started) / 1000).toFixed(1)}s`)
      return state
    }
  }
  const editorName = `${label}: editor with ${PEERS} peers`
  const editor = s.case<ViewerState>({
    name: editorName,
    setup: setup(editorName, () => viewer(update, states)),
    run: ({ doc }) => applyAll(doc),
    check: checkViewer,
    teardown: closeViewer,
    ops: count,
    opUnit: 'keystroke',
  })
  const aloneName = `${label}: editor alone`
  const alone = s.case<ViewerState>({
    name: aloneName,
    setup: setup(aloneName, () => viewer(update, [])),
    run: ({ doc }) => applyAll(doc),
    teardown: closeViewer,
    ops: count,
    opUnit: 'keystroke',
  })
  const bareName = `${label}: Y.applyUpdate`
  const bare = s.case<ReturnType<typeof copyDoc>>({
    name: bareName,
    setup: setup(bareName, () => copyDoc(update)),
    run: ({ doc }) => applyAll(doc),
    teardown: ({ doc }) => doc.destroy(),
    ops: count,
    opUnit: 'keystroke',
  })
  return { length, label, editor, alone, bare }
}

/** `PEERS` awareness states with a selection and a caret each, at seeded places in `text`. */
function peerStates(gen: prng.PRNG, text: Y.Text, length: number): PeerStates {
  const states: Uint8Array[] = []
  for (let i = 0; i < PEERS; i++) {
    const peerDoc = new Y.Doc()
    peerDoc.clientID = 1_000_000 + i
    const awareness = new awarenessProtocol.Awareness(peerDoc)
    const position = (index: number) =>
      JSON.parse(JSON.stringify(Y.createRelativePositionFromTypeIndex(text, index, -1)))
    const start = prng.int32(gen, 0, length - MAX_SELECTION)
    const end = start + prng.int32(gen, 1, MAX_SELECTION)
    const caret = prng.int32(gen, 0, length)
    const selection = { anchor: position(start), head: position(end) }
    awareness.setLocalState({
      user: { name: `peer ${i}`, color: '#d33' },
      cursor: { anchor: position(caret), head: position(caret) },
      selections: [selection, { anchor: position(caret), head: position(caret) }],
    })
    states.push(awarenessProtocol.encodeAwarenessUpdate(awareness, [peerDoc.clientID]))
    awareness.destroy()
    peerDoc.destroy()
  }
  return states
}

/** An editor on a fresh copy of the document, showing every peer. */
function viewer(update: Uint8Array, states: PeerStates): ViewerState {
  const { doc } = copyDoc(update)
  const editor = new TextEditor({ doc, textName: TEXT_NAME })
  const awareness = new awarenessProtocol.Awareness(doc)
  const remote = new RemoteCursors(editor, awareness, { name: 'viewer', color: '#333' })
  for (const state of states) awarenessProtocol.applyAwarenessUpdate(awareness, state, 'network')
  return { doc, editor, awareness, remote }
}

/** Removes the remote carets, then destroys the editor and the awareness. */
function closeViewer({ editor, awareness, remote }: ViewerState): void {
  remote.dispose()
  editor.destroy()
  awareness.destroy()
}

/** Throws unless every peer is shown where Yjs resolves its relative positions. */
function checkViewer({ doc, editor, awareness, remote }: ViewerState): void {
  const shown = remote.getRemoteCursors()
  if (shown.length !== awareness.getStates().size - 1)
    throw new Error(`${shown.length} peers shown, ${awareness.getStates().size - 1} expected`)
  const buffer = editor.getBuffer()
  for (const peer of shown) {
    const state = awareness.getStates().get(peer.clientId)!
    const expected = (state.selections as Array<{ anchor: unknown; head: unknown }>).map(
      ({ anchor, head }) =>
        [anchor, head].map(
          (json) =>
            Y.createAbsolutePositionFromRelativePosition(
              Y.createRelativePositionFromJSON(json),
              doc,
            )!.index,
        ),
    )
    const actual = peer.selections.map(({ range }) => [
      buffer.characterIndexForPosition(range.start),
      buffer.characterIndexForPosition(range.end),
    ])
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      throw new Error(`peer ${peer.clientId} is shown at ${actual}, Yjs resolves ${expected}`)
    }
  }
}
