/**
 * What attribution costs: a document of 1M characters (quick: 50,000) written by 100 users,
 * each update a word or two typed (or a few characters deleted) somewhere in the text by one
 * of them, every update recorded with its author as the server records it.
 *
 * Rows: the lookup of who wrote the whole text, against reading the same text out of the
 * Y.Text (`toString`, the same walk over the same items: the floor of any lookup that visits
 * the text); the authors of the last screen of text (4,000 characters), the worst place for
 * a walk from the start; recording every update's authors, against applying the same updates
 * to a Y.Doc (what the server does with each anyway). Beside them, the sizes: the author
 * columns each stored update carries, the encoded attribution and the document's own state.
 */
import * as Y from 'yjs'
import { defineSuite } from '../../../bench/harness.js'
import { TEXT_NAME } from '../../../bench/peers.js'
import { Attribution, authorsOfText, idsOfUpdate } from '../src/index.js'

const FULL = { length: 1_000_000, users: 100 }
const QUICK = { length: 50_000, users: 100 }
const SCREEN = 4_000

/** A small seeded generator (mulberry32), so every run writes the same document. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** The document, its updates in order with their authors, and the attribution they give. */
interface Written {
  readonly doc: Y.Doc
  readonly text: Y.Text
  readonly updates: readonly { update: Uint8Array; user: string; time: number }[]
  readonly attribution: Attribution
}

/** 100 users taking turns, each turn one update; every user has a client id of their own. */
const write = (length: number, users: number): Written => {
  const next = random(42)
  const doc = new Y.Doc()
  const text = doc.getText(TEXT_NAME)
  const updates: { update: Uint8Array; user: string; time: number }[] = []
  doc.on('update', (update: Uint8Array) => updates.push({ update, user: '', time: 0 }))
  const names = Array.from({ length: users }, (_, i) => `user-${i}@example.org`)
  const clients = names.map((_, i) => 1_000 + i)
  let time = Date.UTC(2026, 10, 1, 9)
  while (text.length < length) {
    const who = Math.floor(next() * users)
    doc.clientID = clients[who]!
    const at = Math.floor(next() * (text.length + 1))
    if (text.length > 100 && next() < 0.1) {
      text.delete(Math.min(at, text.length - 5), 5)
    } else {
      text.insert(at, `${'word '.repeat(1 + Math.floor(next() * 4))}`)
    }
    const last = updates[updates.length - 1]!
    updates[updates.length - 1] = { update: last.update, user: names[who]!, time }
    time += 1_000 + Math.floor(next() * 30_000)
  }
  const attribution = new Attribution()
  for (const { update, user, time: at } of updates)
    attribution.record(idsOfUpdate(update), user, at)
  return { doc, text, updates, attribution }
}

export default defineSuite({
  name: 'attribution',
  description: 'who wrote what: lookup and recording cost, and the bytes kept, 100 users',
  measure: { minRuns: 5, maxRuns: 15, budgetMs: 10_000 },
  define(s) {
    const size = s.quick ? QUICK : FULL
    s.progress(`writing ${size.length.toLocaleString('en-US')} characters as ${size.users} users`)
    const written = write(size.length, size.users)
    const { text, attribution, updates } = written
    const length = text.length
    const ops = updates.length
    s.note(
      `${length.toLocaleString('en-US')} characters from ${ops.toLocaleString('en-US')} updates ` +
        `of ${size.users} users (a word or two typed, or five characters deleted, each)`,
    )
    const whole = s.case({
      name: 'authors of the whole text',
      setup: () => written,
      run: ({ text: t, attribution: a }) => authorsOfText(t, a, 0, t.length),
      check: (_, runs) => {
        const list = runs as { from: number; to: number; user: string | null }[]
        if (list[0]?.from !== 0 || list[list.length - 1]?.to !== length) {
          throw new Error('the runs do not cover the text')
        }
        if (list.some((run) => run.user === null)) throw new Error('a run has no author')
      },
    })
    const read = s.case({
      name: 'Y.Text toString (the same items walked)',
      setup: () => written,
      run: ({ text: t }) => t.toString(),
    })
    s.compare({ name: 'authors of the whole text / reading it', candidate: whole, peer: read })
    const screen = s.case({
      name: `authors of the last ${SCREEN.toLocaleString('en-US')} characters`,
      setup: () => written,
      run: ({ text: t, attribution: a }) => authorsOfText(t, a, t.length - SCREEN, t.length),
    })
    s.report({ case: screen, unit: 'ms' })
    const recording = s.case({
      name: 'record every update',
      setup: () => written,
      run: ({ updates: all }) => {
        const fresh = new Attribution()
        for (const { update, user, time } of all) fresh.record(idsOfUpdate(update), user, time)
        return fresh
      },
      ops,
      opUnit: 'update',
    })
    const applying = s.case({
      name: 'Y.applyUpdate of every update',
      setup: () => written,
      run: ({ updates: all }) => {
        const doc = new Y.Doc()
        doc.transact(() => {
          for (const { update } of all) Y.applyUpdate(doc, update)
        })
        return doc
      },
      ops,
      opUnit: 'update',
    })
    s.compare({
      name: 'recording authors / applying the updates',
      candidate: recording,
      peer: applying,
      perOp: true,
    })
    const encoded = attribution.encode()
    const columns = updates.reduce((sum, { user }) => sum + Buffer.byteLength(user) + 8, 0)
    const state = Y.encodeStateAsUpdate(written.doc)
    const updateBytes = updates.reduce((sum, { update }) => sum + update.length, 0)
    s.report({ name: 'document', value: length, unit: 'chars' })
    s.report({ name: 'document state (encoded)', value: state.length, unit: 'bytes' })
    s.report({ name: 'stored updates', value: updateBytes, unit: 'bytes' })
    s.report({ name: 'author columns per stored update', value: columns / ops, unit: 'bytes' })
    s.report({ name: 'attribution (encoded)', value: encoded.length, unit: 'bytes' })
    s.report({ name: 'attribution runs', value: attribution.runCount, unit: 'runs' })
    s.report({
      name: 'attribution / document state',
      value: encoded.length / state.length,
      unit: 'x',
    })
  },
})
