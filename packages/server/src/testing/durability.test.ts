/**
 * The durability check itself, on documents passed by hand and an in-memory store: it finds
 * exactly the characters and deletions a client received that the store lacks, and never
 * counts the client's own edits.
 */
import { afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { SqliteStore } from '../storage/sqlite-store.js'
import { describeMissing, isLoss, lossSize, missingFromStore } from './durability.js'
import { OwnEdits, receivedCharacters, snapshotReceived } from './received.js'
import { readStoredRoom } from './stored.js'

/** A client's document, its own edits recorded, with a fixed client id for readable ids. */
const clientDoc = (clientID: number) => {
  const doc = new Y.Doc()
  doc.clientID = clientID
  const own = new OwnEdits(doc)
  return { doc, own, text: doc.getText('text') }
}

/** Delivers `update` as a provider would: a remote transaction. */
const deliver = (to: Y.Doc, update: Uint8Array) => Y.applyUpdate(to, update, 'server')

const stores: SqliteStore[] = []
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
})
const storeOf = async (room: string, updates: readonly Uint8Array[]) => {
  const store = SqliteStore.open({ file: ':memory:' })
  stores.push(store)
  for (const update of updates) await store.append(room, update)
  return readStoredRoom(store, room)
}

describe('missingFromStore', () => {
  it('finds nothing missing when the store has what was received', async () => {
    const ada = clientDoc(1)
    const bob = clientDoc(2)
    ada.text.insert(0, 'hello')
    bob.text.insert(0, 'mine, unsent')
    deliver(bob.doc, ada.own.updates[0]!)
    // Bob's own text is not in the store: not his to be owed.
    const stored = await storeOf('r', ada.own.updates)
    const received = snapshotReceived(bob.own)
    expect(missingFromStore(received, stored)).toEqual({ characters: [], deletions: [] })
    expect(receivedCharacters(received)).toBe(5)
  })

  it('names the characters received from another writer that the store lacks', async () => {
    const ada = clientDoc(1)
    const bob = clientDoc(2)
    ada.text.insert(0, 'stored')
    ada.text.insert(6, ' and lost')
    for (const update of ada.own.updates) deliver(bob.doc, update)
    const stored = await storeOf('r', ada.own.updates.slice(0, 1))
    const missing = missingFromStore(snapshotReceived(bob.own), stored)
    expect(missing.characters).toEqual([{ writer: 1, clock: 6, length: 9, text: ' and lost' }])
    expect(missing.deletions).toEqual([])
    expect(lossSize(missing)).toEqual({ characters: 9, deletions: 0 })
    expect(describeMissing('room r, bob', missing)).toEqual([
      'room r, bob received 9 characters of writer 1 (clocks 6..14) that the store lacks: " and lost"',
    ])
  })

  it('names deletions received that the store lacks, not those the client made itself', async () => {
    const ada = clientDoc(1)
    const bob = clientDoc(2)
    const cy = clientDoc(3)
    ada.text.insert(0, 'abcdef')
    for (const doc of [bob.doc, cy.doc]) deliver(doc, ada.own.updates[0]!)
    // Bob deletes "bc" and Cy deletes "cd": Cy receives Bob's deletion, the store never does.
    bob.text.delete(1, 2)
    cy.text.delete(2, 2)
    deliver(cy.doc, bob.own.updates.at(-1)!)
    const stored = await storeOf('r', [ada.own.updates[0]!, cy.own.updates.at(-1)!])
    const missing = missingFromStore(snapshotReceived(cy.own), stored)
    // "c" was deleted by Cy as well: only "b" is a deletion Cy received and the store lacks.
    expect(missing).toEqual({
      characters: [],
      deletions: [{ writer: 1, clock: 1, length: 1, text: 'b' }],
    })
    expect(isLoss(missing)).toBe(true)
    expect(missingFromStore(snapshotReceived(bob.own), stored).deletions).toEqual([])
  })

  it('ignores content the client holds aside, waiting for what it builds on', async () => {
    const ada = clientDoc(1)
    const bob = clientDoc(2)
    ada.text.insert(0, 'first')
    ada.text.insert(5, ' second')
    // Bob gets the second update alone: Yjs keeps it aside, and Bob shows nothing of it.
    deliver(bob.doc, ada.own.updates[1]!)
    expect(bob.text.toString()).toBe('')
    const stored = await storeOf('r', [])
    expect(missingFromStore(snapshotReceived(bob.own), stored)).toEqual({
      characters: [],
      deletions: [],
    })
  })

  it('counts deletions of items the store keeps aside as stored', async () => {
    const ada = clientDoc(1)
    const bob = clientDoc(2)
    ada.text.insert(0, 'xy')
    deliver(bob.doc, ada.own.updates[0]!)
    bob.text.delete(0, 1)
    deliver(ada.doc, bob.own.updates.at(-1)!)
    // The store has Bob's deletion but not Ada's text: Ada, who received the deletion, is owed
    // nothing more (her own text is hers), and Bob is owed Ada's text.
    const stored = await storeOf('r', [bob.own.updates.at(-1)!])
    expect(missingFromStore(snapshotReceived(ada.own), stored)).toEqual({
      characters: [],
      deletions: [],
    })
    expect(missingFromStore(snapshotReceived(bob.own), stored).characters).toEqual([
      { writer: 1, clock: 0, length: 2, text: null },
    ])
  })
})
