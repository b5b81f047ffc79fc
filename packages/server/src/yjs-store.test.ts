/**
 * The server's reads of Yjs internals, against stock Yjs: pending updates left out of what is
 * encoded, and whether a document holds an update, checked against a snapshot of the document.
 */
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random } from '../../../testing/random.js'
import { encodeIntegratedState, hasPendingUpdates, holdsUpdate } from './yjs-store.js'

/** A document that records each of its updates. */
const recorded = (clientID: number) => {
  const doc = new Y.Doc()
  doc.clientID = clientID
  const updates: Uint8Array[] = []
  doc.on('update', (update: Uint8Array) => updates.push(update))
  return { doc, text: doc.getText('text'), updates }
}

const textOf = (update: Uint8Array): string => {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  return doc.getText('text').toString()
}

describe('encodeIntegratedState', () => {
  it('leaves out items Yjs holds pending, which stock encoding sends', () => {
    const a = recorded(1)
    a.text.insert(0, 'abc')
    a.text.insert(3, 'def')
    const [first, second] = a.updates as [Uint8Array, Uint8Array]
    const server = new Y.Doc()
    // The second update builds on the first, which has not arrived.
    Y.applyUpdate(server, second)
    expect(hasPendingUpdates(server)).toBe(true)
    expect(textOf(Y.encodeStateAsUpdate(server))).toBe('')
    const stock = new Y.Doc()
    Y.applyUpdate(stock, Y.encodeStateAsUpdate(server))
    expect(hasPendingUpdates(stock)).toBe(true)
    const ours = new Y.Doc()
    Y.applyUpdate(ours, encodeIntegratedState(server))
    expect(hasPendingUpdates(ours)).toBe(false)
    // Pending structs are still in the document and integrate once their base arrives.
    Y.applyUpdate(server, first)
    expect(hasPendingUpdates(server)).toBe(false)
    expect(textOf(encodeIntegratedState(server))).toBe('abcdef')
  })

  it('leaves out deletions of items the document has not seen', () => {
    const a = recorded(1)
    a.text.insert(0, 'abc')
    const insert = a.updates[0]!
    a.text.delete(0, 1)
    const deletion = a.updates[1]!
    const server = new Y.Doc()
    Y.applyUpdate(server, deletion)
    expect(hasPendingUpdates(server)).toBe(true)
    const decoded = Y.decodeUpdate(encodeIntegratedState(server))
    expect(decoded.ds.clients.size).toBe(0)
    expect(Y.decodeUpdate(Y.encodeStateAsUpdate(server)).ds.clients.size).toBe(1)
    Y.applyUpdate(server, insert)
    expect(textOf(encodeIntegratedState(server))).toBe('bc')
  })

  it('encodes only what a peer lacks, given its state vector', () => {
    const a = recorded(1)
    a.text.insert(0, 'hello')
    const peer = new Y.Doc()
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(a.doc))
    a.text.insert(5, ' world')
    const missing = encodeIntegratedState(a.doc, Y.encodeStateVector(peer))
    expect(missing.length).toBeLessThan(Y.encodeStateAsUpdate(a.doc).length)
    Y.applyUpdate(peer, missing)
    expect(peer.getText('text').toString()).toBe('hello world')
  })
})

describe('holdsUpdate', () => {
  it('agrees with Yjs snapshots over random edits of three peers (seed 23)', () => {
    const random = new Random(23)
    const peers = [recorded(1), recorded(2), recorded(3)]
    const server = new Y.Doc()
    const log: Uint8Array[] = []
    const answers = { held: 0, notHeld: 0 }
    for (let step = 0; step < 600; step++) {
      const peer = random.pick(peers)
      const length = peer.text.length
      if (length > 4 && random.chance(0.3)) {
        const at = random.int(0, length - 2)
        peer.text.delete(at, random.int(1, Math.min(3, length - at)))
      } else {
        peer.text.insert(random.int(0, length), 'xyz'.slice(0, random.int(1, 3)))
      }
      const update = peer.updates.at(-1)!
      log.push(update)
      // The others get it now or later; the server gets a random part of the log, in any order.
      for (const other of peers) {
        if (other !== peer && random.chance(0.5)) Y.applyUpdate(other.doc, update)
      }
      if (random.chance(0.8)) Y.applyUpdate(server, update)
      if (random.chance(0.2)) Y.applyUpdate(server, random.pick(log))
      const roll = random.next()
      const probe =
        roll < 0.4
          ? update
          : roll < 0.7
            ? random.pick(log)
            : Y.encodeStateAsUpdate(random.pick(peers).doc)
      // A snapshot lists integrated items and deletions only, as `holdsUpdate` counts them.
      const held = holdsUpdate(server, probe)
      expect(held, `step ${step}`).toBe(Y.snapshotContainsUpdate(Y.snapshot(server), probe))
      answers[held ? 'held' : 'notHeld']++
    }
    // Both answers came up often enough to mean something.
    expect(answers.held).toBeGreaterThan(30)
    expect(answers.notHeld).toBeGreaterThan(30)
  })

  it('holds an update applied to it, and one it has merged with others', () => {
    const a = recorded(1)
    a.text.insert(0, 'one two three')
    a.text.delete(4, 4)
    const server = new Y.Doc()
    expect(holdsUpdate(server, a.updates[0]!)).toBe(false)
    for (const update of a.updates) Y.applyUpdate(server, update)
    for (const update of a.updates) expect(holdsUpdate(server, update)).toBe(true)
    expect(holdsUpdate(server, Y.mergeUpdates(a.updates))).toBe(true)
    expect(holdsUpdate(server, new Uint8Array([0, 0]))).toBe(true)
  })

  it('does not count pending items or deletions as held', () => {
    const a = recorded(1)
    a.text.insert(0, 'abc')
    a.text.insert(3, 'd')
    a.text.delete(0, 1)
    const server = new Y.Doc()
    Y.applyUpdate(server, a.updates[1]!)
    Y.applyUpdate(server, a.updates[2]!)
    expect(holdsUpdate(server, a.updates[1]!)).toBe(false)
    expect(holdsUpdate(server, a.updates[2]!)).toBe(false)
  })

  it('throws on an update that does not decode', () => {
    expect(() => holdsUpdate(new Y.Doc(), new Uint8Array([5, 200, 1]))).toThrow()
  })
})
