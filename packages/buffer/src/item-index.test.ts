import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { ItemIndex, type TextChange } from './item-index.js'
import { TestNetwork } from './testing/network.js'
import { Random, seeds } from './testing/random.js'

const ALPHABET = ['a', 'b', 'c', ' ', '\n', 'xy', 'hello']

interface Peer {
  doc: Y.Doc
  text: Y.Text
  index: ItemIndex
  mirror: string
  undo: Y.UndoManager
  positions: Y.RelativePosition[]
}

const applyChanges = (mirror: string, changes: TextChange[]): string => {
  let out = ''
  let last = 0
  for (const c of changes) {
    out += mirror.slice(last, c.oldStart) + c.text
    last = c.oldEnd
  }
  return out + mirror.slice(last)
}

const makePeer = (doc: Y.Doc): Peer => {
  const text = doc.getText('text')
  const peer: Peer = {
    doc,
    text,
    index: new ItemIndex(text),
    mirror: '',
    undo: new Y.UndoManager(text, { captureTimeout: 0 }),
    positions: [],
  }
  text.observe((event, transaction) => {
    const changes = peer.index.ingest(transaction)
    const before = peer.mirror
    peer.mirror = applyChanges(before, changes)
    // The changes say the same as Yjs's own delta.
    let fromDelta = ''
    let at = 0
    for (const op of event.delta) {
      if (op.retain !== undefined) {
        fromDelta += before.slice(at, at + op.retain)
        at += op.retain
      } else if (op.delete !== undefined) {
        at += op.delete
      } else if (typeof op.insert === 'string') {
        fromDelta += op.insert
      }
    }
    fromDelta += before.slice(at)
    expect(peer.mirror).toBe(fromDelta)
    for (const c of changes) expect(c.oldText).toBe(before.slice(c.oldStart, c.oldEnd))
    for (let i = 1; i < changes.length; i++) {
      expect(changes[i]!.oldStart).toBeGreaterThan(changes[i - 1]!.oldEnd)
    }
  })
  return peer
}

const randomEdit = (random: Random, peer: Peer): void => {
  const length = peer.text.length
  const roll = random.next()
  if (roll < 0.5 || length === 0) {
    peer.text.insert(random.int(0, length), random.string(random.int(1, 4), ALPHABET))
  } else if (roll < 0.8) {
    const start = random.int(0, length - 1)
    peer.text.delete(start, random.int(1, Math.min(6, length - start)))
  } else if (roll < 0.9) {
    peer.undo.undo()
  } else {
    peer.undo.redo()
  }
}

const checkPeer = (peer: Peer, random: Random, context: string): void => {
  expect(peer.mirror, context).toBe(peer.text.toString())
  expect(peer.index.length, context).toBe(peer.text.length)
  peer.index.checkInvariants()
  for (let n = 0; n < 5; n++) {
    const offset = random.int(0, peer.text.length)
    const assoc = random.pick([-1, 0, 1])
    const expected = Y.createRelativePositionFromTypeIndex(peer.text, offset, assoc)
    const actual = peer.index.relativePositionAt(offset, assoc)
    expect(Y.relativePositionToJSON(actual), context).toEqual(Y.relativePositionToJSON(expected))
    peer.positions.push(expected)
  }
  if (peer.positions.length > 60) peer.positions.splice(0, peer.positions.length - 60)
  for (const position of peer.positions) {
    const expected = Y.createAbsolutePositionFromRelativePosition(position, peer.doc)
    expect(peer.index.offsetOf(position), context).toBe(expected === null ? null : expected.index)
  }
}

describe('ItemIndex', () => {
  it('follows a single document', () => {
    const doc = new Y.Doc()
    const peer = makePeer(doc)
    peer.text.insert(0, 'hello world')
    peer.text.delete(2, 3)
    peer.text.insert(4, 'XYZ')
    doc.transact(() => {
      peer.text.insert(0, 'A')
      peer.text.insert(peer.text.length, 'B')
      peer.text.delete(3, 2)
    })
    checkPeer(peer, new Random(1), 'single')
  })

  it('reports one transaction as sorted, non-touching changes', () => {
    const doc = new Y.Doc()
    const text = doc.getText('text')
    text.insert(0, '0123456789')
    const index = new ItemIndex(text)
    let changes: TextChange[] = []
    text.observe((_event, transaction) => {
      changes = index.ingest(transaction)
    })
    doc.transact(() => {
      text.insert(8, 'x')
      text.delete(2, 2)
      text.insert(2, 'yy')
      text.insert(0, 'z')
    })
    expect(changes).toEqual([
      { oldStart: 0, oldEnd: 0, newStart: 0, newEnd: 1, text: 'z', oldText: '' },
      { oldStart: 2, oldEnd: 4, newStart: 3, newEnd: 5, text: 'yy', oldText: '23' },
      { oldStart: 8, oldEnd: 8, newStart: 9, newEnd: 10, text: 'x', oldText: '' },
    ])
  })

  for (const seed of seeds(12)) {
    it(`converges with Yjs across peers (seed ${seed})`, () => {
      const random = new Random(seed)
      const network = new TestNetwork(3, random)
      const peers = network.docs.map(makePeer)
      for (let step = 0; step < 400; step++) {
        const context = `seed ${seed}, step ${step}`
        const p = random.int(0, peers.length - 1)
        const peer = peers[p]!
        if (random.chance(0.7)) {
          if (random.chance(0.3)) {
            peer.doc.transact(() => {
              for (let k = random.int(1, 4); k > 0; k--) randomEdit(random, peer)
            })
          } else {
            randomEdit(random, peer)
          }
        } else if (random.chance(0.1)) {
          if (network.isOnline(p)) network.disconnect(p)
          else network.reconnect(p)
        } else {
          network.deliverSome(random.int(1, 5))
        }
        checkPeer(peer, random, context)
      }
      network.flush()
      const final = peers[0]!.text.toString()
      for (const peer of peers) {
        expect(peer.text.toString(), `seed ${seed}`).toBe(final)
        checkPeer(peer, random, `seed ${seed}, after flush`)
      }
    })
  }

  it('binds to a document that already has text', () => {
    const source = new Y.Doc()
    const text = source.getText('text')
    text.insert(0, 'abcdef')
    text.delete(1, 2)
    text.insert(2, 'XY')
    const doc = new Y.Doc()
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(source))
    const peer = makePeer(doc)
    peer.mirror = peer.text.toString()
    checkPeer(peer, new Random(3), 'existing')
  })
})
