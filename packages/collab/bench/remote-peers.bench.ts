/**
 * One remote keystroke reaching an editor that shows 100 remote peers, each with a caret and
 * a selection: the time to apply the update and bring every remote marker and decoration up
 * to date, beside the bare `Y.applyUpdate` of the same update, on fragmented documents of
 * 100k and 1M characters. The budget: no cost proportional to the document's length (the
 * 1M / 100k ratio at most 1.5).
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
  TEXT_NAME,
  typeKeystrokes,
} from '../../../bench/peers.js'
import { RemoteCursors } from '../src/remote-cursors.js'

/** Remote peers shown, each with a caret and a selection. */
const PEERS = 100
/** Keystrokes per run, each applied as its own update. */
const KEYSTROKES = 200
const QUICK_KEYSTROKES = 50
/** Longest remote selection, in characters. */
const MAX_SELECTION = 200

/** Every peer's awareness state, encoded as it arrives from the network. */
type PeerStates = readonly Uint8Array[]

interface ViewerState {
  readonly doc: Y.Doc
  readonly editor: TextEditor
  readonly awareness: awarenessProtocol.Awareness
  readonly remote: RemoteCursors
}

interface SizeCases {
  readonly label: string
  readonly editor: CaseRef
  readonly alone: CaseRef
  readonly bare: CaseRef
}

export default defineSuite({
  name: 'collab-remote-peers',
  description:
    'a remote keystroke with 100 remote carets and selections shown vs bare Y.applyUpdate',
  measure: { maxRuns: 9 },
  define(s) {
    const [smallLength, largeLength] = s.quick ? [20_000, 200_000] : [100_000, 1_000_000]
    const keystrokes = s.quick ? QUICK_KEYSTROKES : KEYSTROKES
    const small = sizeCases(s, smallLength, keystrokes)
    const large = sizeCases(s, largeLength, keystrokes)
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
    for (const cases of [small, large]) {
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
    s.note(`each of ${PEERS} peers shows a caret and a selection; ${keystrokes} keystrokes per run`)
  },
})

function sizeCases(s: SuiteBuilder, length: number, count: number): SizeCases {
  const label = charsLabel(length)
  const { update } = buildFragmentedDoc({ length, quick: s.quick, progress: s.progress })
  const gen = prng.create(length)
  const states = peerStates(gen, update, length)
  const keystrokes = typeKeystrokes(gen, update, count).updates
  const applyAll = (doc: Y.Doc) => {
    for (const u of keystrokes) Y.applyUpdate(doc, u, PEER_ORIGIN)
  }
  const editor = s.case<ViewerState>({
    name: `${label}: editor with ${PEERS} peers`,
    setup: () => viewer(update, states),
    run: ({ doc }) => applyAll(doc),
    check: checkViewer,
    teardown: closeViewer,
    ops: count,
    opUnit: 'keystroke',
  })
  const alone = s.case<ViewerState>({
    name: `${label}: editor alone`,
    setup: () => viewer(update, []),
    run: ({ doc }) => applyAll(doc),
    teardown: closeViewer,
    ops: count,
    opUnit: 'keystroke',
  })
  const bare = s.case({
    name: `${label}: Y.applyUpdate`,
    setup: () => copyDoc(update),
    run: ({ doc }) => applyAll(doc),
    ops: count,
    opUnit: 'keystroke',
  })
  return { label, editor, alone, bare }
}

/** `PEERS` awareness states with a selection and a caret each, at seeded places. */
function peerStates(gen: prng.PRNG, update: Uint8Array, length: number): PeerStates {
  const { doc, text } = copyDoc(update)
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
  doc.destroy()
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
function checkViewer({ doc, editor, awareness }: ViewerState): void {
  const shown = editor.getRemoteCursors()
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
