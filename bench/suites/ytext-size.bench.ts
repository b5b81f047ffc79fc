/**
 * How a bare Y.Text's keystroke cost grows with document length, on documents whose item
 * lists are fragmented by a replayed trace: the peer figures for the budget "a remote
 * keystroke with 10,000 markers costs the same on a 100k- and a 1M-character document".
 */
import * as prng from 'lib0/prng'
import * as Y from 'yjs'
import { type CaseRef, defineSuite, type SuiteBuilder } from '../harness.js'
import { buildFragmentedDoc, copyDoc, PEER_ORIGIN, reportDocumentShape } from '../peers.js'

const KEYSTROKES = 1_000

export default defineSuite({
  name: 'ytext-size',
  description: 'single-character edits on a bare Y.Text, small vs large fragmented document',
  measure: { maxRuns: 9 },
  define(s) {
    const [small, large] = s.quick ? [10_000, 100_000] : [100_000, 1_000_000]
    const smallCases = keystrokeCases(s, small, 50_000)
    const largeCases = keystrokeCases(s, large, 50_000)
    const oneClient = keystrokeCases(s, large, Number.POSITIVE_INFINITY)
    s.scaling({
      name: 'local keystroke, large vs small',
      small: smallCases.local,
      large: largeCases.local,
      perOp: true,
    })
    s.scaling({
      name: 'remote keystroke, large vs small',
      small: smallCases.remote,
      large: largeCases.remote,
      perOp: true,
    })
    s.compare({
      name: 'remote keystroke, large: one client / many',
      candidate: oneClient.remote,
      peer: largeCases.remote,
      perOp: true,
    })
    for (const c of [smallCases, largeCases, oneClient]) {
      s.report({ case: c.local, unit: 'µs/op' })
      s.report({ case: c.remote, unit: 'µs/op' })
    }
  },
})

/** Local and remote keystroke cases on a built document of `length` characters. */
function keystrokeCases(
  s: SuiteBuilder,
  length: number,
  charsPerClient: number,
): { local: CaseRef; remote: CaseRef } {
  const doc = buildFragmentedDoc({ length, quick: s.quick, charsPerClient, progress: s.progress })
  const { update } = doc
  const label = `${length >= 1_000_000 ? `${length / 1_000_000}M` : `${length / 1_000}k`} chars${
    charsPerClient === Number.POSITIVE_INFINITY ? ', one client' : ''
  }`
  reportDocumentShape(s, label, doc)
  const gen = prng.create(length)
  const positions = Array.from({ length: KEYSTROKES }, () => prng.int32(gen, 0, length))
  const expected = length + KEYSTROKES
  const local = s.case({
    name: `local keystrokes, ${label}`,
    setup: () => copyDoc(update),
    run: ({ doc, text }) => {
      for (let i = 0; i < KEYSTROKES; i++) {
        doc.transact(() => text.insert(positions[i]! + i, 'x'), PEER_ORIGIN)
      }
    },
    check: ({ text }) => expectLength(text, expected),
    ops: KEYSTROKES,
    opUnit: 'keystroke',
  })
  const updates = remoteKeystrokes(update, positions)
  const remote = s.case({
    name: `remote keystrokes, ${label}`,
    setup: () => copyDoc(update),
    run: ({ doc }) => {
      for (const u of updates) Y.applyUpdate(doc, u, PEER_ORIGIN)
    },
    check: ({ text }) => expectLength(text, expected),
    ops: KEYSTROKES,
    opUnit: 'keystroke',
  })
  return { local, remote }
}

/** The updates another peer sends when it types one character at each position. */
function remoteKeystrokes(base: Uint8Array, positions: readonly number[]): Uint8Array[] {
  const { doc, text } = copyDoc(base)
  const updates: Uint8Array[] = []
  doc.on('update', (u: Uint8Array) => updates.push(u))
  positions.forEach((pos, i) => {
    doc.transact(() => text.insert(pos + i, 'y'))
  })
  return updates
}

function expectLength(text: Y.Text, length: number): void {
  if (text.length !== length) throw new Error(`expected ${length} characters, found ${text.length}`)
}
