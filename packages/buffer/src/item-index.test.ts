import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import { ItemIndex, type TextChange } from './item-index.js'
import { TestNetwork } from './testing/network.js'

const ALPHABET = ['a', 'b', 'c', ' ', '\n', 'xy', 'hello']

interface Peer {
  doc: Y.Doc
  text: Y.Text
  index: ItemIndex
  mirror: string
  undo: Y.UndoManager
  positions: Y.RelativePosition[]
  /** Set while a transaction makes one edit that is taken in with `applyLocalEdit`. */
  localEdit: { offset: number; deleted: number; clock: number; text: string } | null
  /** Where the last local edit left off, to continue runs of typing and deleting. */
  runOffset: number
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
    localEdit: null,
    runOffset: 0,
  }
  text.observe((event, transaction) => {
    const edit = peer.localEdit
    peer.localEdit = null
    let changes: TextChange[]
    if (edit === null) {
      changes = peer.index.ingest(transaction)
    } else {
      peer.index.noteLocalEdit(
        edit.offset,
        edit.deleted,
        doc.clientID,
        edit.clock,
        edit.text.length,
      )
      const end = edit.offset + edit.deleted
      const oldText = peer.mirror.slice(edit.offset, end)
      const newEnd = edit.offset + edit.text.length
      changes = [
        {
          oldStart: edit.offset,
          oldEnd: end,
          newStart: edit.offset,
          newEnd,
          text: edit.text,
          oldText,
        },
      ]
    }
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
  if (roll < 0.25) {
    // One edit taken in directly, as a buffer does with its own edits: often continuing a
    // run of typing, backspacing or deleting forward where the last one left off.
    let offset = random.int(0, length)
    let deleted = random.int(0, Math.min(3, length - offset))
    let text = random.chance(0.2) ? '' : random.string(random.int(1, 3), ALPHABET)
    if (peer.runOffset <= length && random.chance(0.6)) {
      offset = peer.runOffset
      const kind = random.int(0, 2)
      deleted = kind === 0 ? 0 : Math.min(1, kind === 1 ? offset : length - offset)
      if (kind === 1) offset -= deleted
      text = kind === 0 ? random.string(1, ALPHABET) : ''
    }
    if (deleted === 0 && text === '') return
    peer.runOffset = offset + text.length
    const clock = Y.getState(peer.doc.store, peer.doc.clientID)
    peer.doc.transact(() => {
      peer.localEdit = { offset, deleted, clock, text }
      if (deleted > 0) peer.text.delete(offset, deleted)
      if (text !== '') peer.text.insert(offset, text)
    })
  } else if (roll < 0.55 || length === 0) {
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
              peer.localEdit = null
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

  for (const seed of seeds(6)) {
    it(`joins runs of local typing and deleting (seed ${seed})`, () => {
      const random = new Random(seed)
      const network = new TestNetwork(2, random)
      const [peer, other] = network.docs.map(makePeer) as [Peer, Peer]
      other.text.insert(0, random.string(40, ALPHABET))
      network.flush()
      for (let round = 0; round < 60; round++) {
        const context = `seed ${seed}, round ${round}`
        peer.runOffset = random.int(0, peer.text.length)
        // Several edits in a row with nothing reading the index in between, so they join.
        for (let k = random.int(1, 8); k > 0; k--) {
          const offset = peer.runOffset
          const kind = random.int(0, 3)
          const deleted =
            kind === 1
              ? Math.min(1, offset)
              : kind === 2
                ? Math.min(1, peer.text.length - offset)
                : 0
          const start = kind === 1 ? offset - deleted : offset
          const text = kind === 0 || kind === 3 ? random.string(random.int(1, 2), ALPHABET) : ''
          if (deleted === 0 && text === '') continue
          const clock = Y.getState(peer.doc.store, peer.doc.clientID)
          peer.doc.transact(() => {
            peer.localEdit = { offset: start, deleted, clock, text }
            if (deleted > 0) peer.text.delete(start, deleted)
            if (text !== '') peer.text.insert(start, text)
          })
          peer.runOffset = start + text.length
        }
        // Positions in and around the run, answered while it may still be pending: resolving
        // first, then creating, from the end of the run backwards.
        const offsets: number[] = []
        for (let o = peer.runOffset; o >= Math.max(0, peer.runOffset - 4); o--) offsets.push(o)
        const expected = offsets.flatMap((offset) =>
          [-1, 0].map((assoc) => Y.createRelativePositionFromTypeIndex(peer.text, offset, assoc)),
        )
        for (const position of expected) {
          const resolved = Y.createAbsolutePositionFromRelativePosition(position, peer.doc)
          expect(peer.index.offsetOf(position), context).toBe(resolved?.index ?? null)
        }
        let n = 0
        for (const offset of offsets) {
          for (const assoc of [-1, 0]) {
            const actual = peer.index.relativePositionAt(offset, assoc)
            expect(Y.relativePositionToJSON(actual), context).toEqual(
              Y.relativePositionToJSON(expected[n++]!),
            )
          }
        }
        expect(peer.index.length, context).toBe(peer.text.length)
        if (random.chance(0.3)) {
          other.text.insert(random.int(0, other.text.length), random.string(2, ALPHABET))
          network.flush()
        }
        checkPeer(peer, random, context)
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
