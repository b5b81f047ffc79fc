import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  decodeRedoneLinks,
  decodeUndoItem,
  deletedLength,
  emptyUndoItem,
  encodeRedoneLinks,
  encodeUndoItem,
  followRedone,
  forEachDeletedRun,
  forEachItemMadeIn,
  forEachTextItem,
  isEmptyUndoItem,
  isMadeIn,
  isRootNamed,
  isVisibleText,
  itemClient,
  itemClock,
  itemLength,
  itemText,
  joinUndoItems,
  leftItem,
  nextClock,
  onlyClientAdvancedBy,
  ownerId,
  redoWith,
  relativePosition,
  releaseUndoItems,
  rootName,
  textOfIds,
  type UndoItem,
  undoItemOf,
  undoWith,
} from './yjs-internals.js'

// Each function reads a part of Yjs that Yjs does not document. These tests hold each one to
// what stock Yjs says through its public API, so that a Yjs release changing those parts
// fails here, by name, before anything built on them misbehaves.

/** Two documents with fixed client ids that deliver every update to each other. */
const pair = (): [Y.Doc, Y.Doc] => {
  const a = new Y.Doc()
  const b = new Y.Doc()
  a.clientID = 1
  b.clientID = 2
  a.on('update', (update: Uint8Array) => Y.applyUpdate(b, update))
  b.on('update', (update: Uint8Array) => Y.applyUpdate(a, update))
  return [a, b]
}

/** Runs `fn` in a transaction of `doc` and hands back the transaction (seen by an observer). */
const capture = (doc: Y.Doc, fn: () => void): Y.Transaction => {
  let seen: Y.Transaction | null = null
  const record = (transaction: Y.Transaction) => {
    // The first one: the peer's echo of the update comes as a transaction of its own.
    seen ??= transaction
  }
  doc.on('afterTransaction', record)
  doc.transact(fn)
  doc.off('afterTransaction', record)
  return seen!
}

describe('yjs internals', () => {
  it('forEachTextItem walks the items in text order: the visible ones spell the text', () => {
    const [a, b] = pair()
    const text = a.getText('t')
    text.insert(0, 'hello world')
    b.getText('t').insert(5, ',')
    text.delete(0, 1)
    text.insert(0, 'H')
    let visible = ''
    let clocks = 0
    forEachTextItem(text, (client, clock, length, isVisible) => {
      clocks += length
      if (isVisible) visible += textOfIds(a, client, clock, length)
    })
    expect(visible).toBe(text.toString())
    // Every clock either client spent is one character of this text, deleted or not.
    expect(clocks).toBe(nextClock(a, 1) + nextClock(a, 2))
  })

  it('nextClock is the state vector entry', () => {
    const [a] = pair()
    a.getText('t').insert(0, 'abc')
    const state = Y.decodeStateVector(Y.encodeStateVector(a))
    expect(nextClock(a, 1)).toBe(state.get(1))
    expect(nextClock(a, 99)).toBe(0)
  })

  it('item fields: id, length, left neighbour, string, visibility', () => {
    const [a] = pair()
    const text = a.getText('t')
    text.insert(0, 'ab')
    text.insert(2, 'cd')
    // Read inside the observer: Yjs merges neighbouring items once the transaction is over.
    let observed = 0
    const observer = (_event: Y.YTextEvent, transaction: Y.Transaction) => {
      const items: Y.Item[] = []
      forEachItemMadeIn(transaction, text, (item) => items.push(item))
      expect(items).toHaveLength(1)
      const item = items[0]!
      expect([itemClient(item), itemClock(item), itemLength(item)]).toEqual([1, 4, 2])
      expect(itemText(item)).toBe('ef')
      expect(isVisibleText(item)).toBe(true)
      expect(isMadeIn(transaction, item)).toBe(true)
      // 'ab' and 'cd' were merged into one item when their transaction ended.
      const left = leftItem(item)!
      expect(itemText(left)).toBe('abcd')
      expect(isMadeIn(transaction, left)).toBe(false)
      observed++
    }
    text.observe(observer)
    text.insert(4, 'ef')
    text.unobserve(observer)
    expect(observed).toBe(1)
    // The relative position of the character 'e' names its id, as Yjs makes it.
    expect(Y.createRelativePositionFromTypeIndex(text, 4).item).toEqual(Y.createID(1, 4))
    text.delete(4, 2)
    const items: Array<[number, number, number, boolean]> = []
    forEachTextItem(text, (...item) => items.push(item))
    expect(items).toEqual([
      [1, 0, 4, true],
      [1, 4, 2, false],
    ])
    // Items of another type are not listed.
    const map = a.getMap('m')
    const mapTransaction = capture(a, () => map.set('k', 'v'))
    let seen = 0
    forEachItemMadeIn(mapTransaction, text, () => seen++)
    expect(seen).toBe(0)
  })

  it('forEachItemMadeIn lists what an update inserted, as the event delta tells it', () => {
    const [a, b] = pair()
    a.getText('t').insert(0, 'one two')
    const remote = b.getText('t')
    let inserted: string[] = []
    let deleted = 0
    a.getText('t').observe((event, transaction) => {
      inserted = []
      forEachItemMadeIn(transaction, a.getText('t'), (item) => {
        if (isVisibleText(item)) inserted.push(itemText(item))
      })
      deleted = deletedLength(transaction)
      const delta = event.delta
      // Store order, not text order: compare the characters.
      const sorted = (chars: string) => [...chars].sort().join('')
      expect(sorted(inserted.join(''))).toBe(sorted(delta.map((op) => op.insert ?? '').join('')))
      expect(deleted).toBe(delta.reduce((sum, op) => sum + (op.delete ?? 0), 0))
    })
    b.transact(() => {
      remote.insert(3, ' and')
      remote.insert(0, '>')
      remote.delete(9, 3)
    })
    expect(inserted.sort()).toEqual(['>', ' and'].sort())
    expect(deleted).toBe(3)
  })

  it('forEachDeletedRun and textOfIds give what a transaction deleted, as the delta does', () => {
    const [a] = pair()
    const text = a.getText('t')
    text.insert(0, 'abcdef')
    const runs: Array<[number, number, number]> = []
    let oldText = ''
    text.observe((_event, transaction) => {
      forEachDeletedRun(transaction, (client, clock, len) => {
        runs.push([client, clock, len])
        oldText += textOfIds(a, client, clock, len)
      })
    })
    a.transact(() => {
      text.delete(1, 2)
      text.delete(2, 1)
    })
    expect(runs).toEqual([
      [1, 1, 2],
      [1, 4, 1],
    ])
    expect(oldText).toBe('bce')
    expect(text.toString()).toBe('adf')
  })

  it('onlyClientAdvancedBy compares the before and after state vectors', () => {
    const [a, b] = pair()
    a.getText('t').insert(0, 'xy')
    const local = capture(a, () => a.getText('t').insert(1, 'abc'))
    expect(onlyClientAdvancedBy(local, 1, 3)).toBe(true)
    expect(onlyClientAdvancedBy(local, 1, 2)).toBe(false)
    expect(onlyClientAdvancedBy(local, 2, 3)).toBe(false)
    const deletion = capture(a, () => a.getText('t').delete(0, 1))
    expect(onlyClientAdvancedBy(deletion, 1, 0)).toBe(true)
    expect(deletedLength(deletion)).toBe(1)
    let remote: Y.Transaction | null = null
    a.on('afterTransaction', (transaction: Y.Transaction) => {
      if (!transaction.local) remote ??= transaction
    })
    b.getText('t').insert(0, 'q')
    expect(onlyClientAdvancedBy(remote!, 2, 1)).toBe(true)
    expect(onlyClientAdvancedBy(remote!, 1, 0)).toBe(false)
  })

  it('followRedone resolves a deleted and redone character as Yjs resolves its relative position', () => {
    const [a] = pair()
    const text = a.getText('t')
    text.insert(0, 'keep')
    const undo = new Y.UndoManager(text, { captureTimeout: 0 })
    text.insert(4, ' this')
    const position = Y.createRelativePositionFromTypeIndex(text, 6)
    undo.undo()
    undo.redo()
    expect(text.toString()).toBe('keep this')
    const item = position.item!
    const live = followRedone(text, item.client, item.clock)!
    expect(live).not.toEqual({ client: item.client, clock: item.clock })
    const resolved = Y.createAbsolutePositionFromRelativePosition(position, a)!
    const direct = Y.createRelativePositionFromTypeIndex(text, resolved.index)
    expect(direct.item).toEqual(Y.createID(live.client, live.clock))
    // Ids this document does not have, and ids of another type, resolve to null.
    expect(followRedone(text, 77, 0)).toBeNull()
    a.getText('other').insert(0, 'z')
    const other = Y.createRelativePositionFromTypeIndex(a.getText('other'), 0).item!
    expect(followRedone(text, other.client, other.clock)).toBeNull()
  })

  it('owner, root name and relative positions match Yjs for root and nested texts', () => {
    const [a] = pair()
    const root = a.getText('root')
    root.insert(0, 'abc')
    expect(ownerId(root)).toBeNull()
    expect(rootName(root)).toBe('root')
    expect(isRootNamed(root, 'root')).toBe(true)
    expect(isRootNamed(root, 'other')).toBe(false)
    const stock = Y.createRelativePositionFromTypeIndex(root, 1, -1)
    const made = relativePosition(null, rootName(root), stock.item, -1)
    expect(Y.encodeRelativePosition(made)).toEqual(Y.encodeRelativePosition(stock))

    const nested = new Y.Text('xyz')
    a.getArray('list').insert(0, [nested])
    expect(rootName(nested)).toBeNull()
    expect(isRootNamed(nested, 'list')).toBe(false)
    const owner = ownerId(nested)!
    const nestedStock = Y.createRelativePositionFromTypeIndex(nested, 2)
    expect(nestedStock.type).toEqual(owner)
    const nestedMade = relativePosition(owner, null, nestedStock.item, 0)
    expect(Y.encodeRelativePosition(nestedMade)).toEqual(Y.encodeRelativePosition(nestedStock))
    expect(Y.createAbsolutePositionFromRelativePosition(nestedMade, a)!.index).toBe(2)
  })

  describe('undo items', () => {
    const LOCAL = { name: 'local' }

    /** A document whose transactions with origin `LOCAL` are recorded as undo items. */
    const recording = (clientID: number, onlyLocalClient: boolean) => {
      const doc = new Y.Doc()
      doc.clientID = clientID
      const text = doc.getText('t')
      const items: UndoItem[] = []
      text.observe((_event, transaction) => {
        if (transaction.origin === LOCAL) items.push(undoItemOf(transaction, onlyLocalClient))
      })
      const manager = new Y.UndoManager(text, {
        trackedOrigins: new Set([LOCAL]),
        captureTransaction: (transaction) => transaction.origin !== LOCAL,
      })
      return { doc, text, items, manager }
    }

    /** The same document under a stock manager tracking `LOCAL`, one step per transaction. */
    const stockSide = (clientID: number) => {
      const doc = new Y.Doc()
      doc.clientID = clientID
      const text = doc.getText('t')
      const manager = new Y.UndoManager(text, {
        trackedOrigins: new Set([LOCAL]),
        captureTimeout: 0,
      })
      return { doc, text, manager }
    }

    const edit = (doc: Y.Doc, text: Y.Text, fn: (text: Y.Text) => void) =>
      doc.transact(() => fn(text), LOCAL)

    it('undoWith and redoWith undo and redo a step as the stock manager does', () => {
      for (const onlyLocalClient of [true, false]) {
        const ours = recording(1, onlyLocalClient)
        const stock = stockSide(1)
        const steps = [
          (t: Y.Text) => t.insert(0, 'hello world'),
          (t: Y.Text) => {
            t.delete(0, 6)
            t.insert(0, 'goodbye ')
          },
          (t: Y.Text) => t.insert(t.length, '!'),
        ]
        for (const step of steps) {
          edit(ours.doc, ours.text, step)
          edit(stock.doc, stock.text, step)
        }
        expect(ours.items).toHaveLength(3)
        const position = Y.createRelativePositionFromTypeIndex(ours.text, 2)
        const redoItems: UndoItem[] = []
        for (const item of [...ours.items].reverse()) {
          redoItems.push(undoWith(ours.manager, item)!)
          expect(stock.manager.undo()).not.toBeNull()
          expect(ours.text.toString()).toBe(stock.text.toString())
        }
        expect(ours.text.toString()).toBe('')
        for (const item of redoItems.reverse()) {
          expect(redoWith(ours.manager, item)).not.toBeNull()
          expect(stock.manager.redo()).not.toBeNull()
          expect(ours.text.toString()).toBe(stock.text.toString())
        }
        expect(ours.text.toString()).toBe('goodbye world!')
        // A relative position into undone and redone text follows the redone characters.
        expect(Y.createAbsolutePositionFromRelativePosition(position, ours.doc)!.index).toBe(2)
        // The manager's stacks hold nothing between calls.
        expect([ours.manager.undoStack.length, ours.manager.redoStack.length]).toEqual([0, 0])
      }
    })

    it('undoItemOf records other clients inserting in the same transaction', () => {
      const ours = recording(1, false)
      const stock = stockSide(1)
      const remote = new Y.Doc()
      remote.clientID = 2
      remote.getText('t').insert(0, 'abc')
      const update = Y.encodeStateAsUpdate(remote)
      for (const side of [ours, stock]) {
        edit(side.doc, side.text, (t) => {
          Y.applyUpdate(side.doc, update)
          t.insert(1, 'X')
        })
      }
      expect(ours.text.toString()).toBe(stock.text.toString())
      undoWith(ours.manager, ours.items[0]!)
      stock.manager.undo()
      expect(ours.text.toString()).toBe(stock.text.toString())
    })

    it('joinUndoItems makes one step of two; undoing it undoes both', () => {
      const ours = recording(1, true)
      edit(ours.doc, ours.text, (t) => t.insert(0, 'ab'))
      edit(ours.doc, ours.text, (t) => t.insert(2, 'cd'))
      edit(ours.doc, ours.text, (t) => t.delete(0, 1))
      const [first, second, third] = ours.items
      joinUndoItems(second!, third!)
      expect(ours.text.toString()).toBe('bcd')
      undoWith(ours.manager, second!)
      expect(ours.text.toString()).toBe('ab')
      undoWith(ours.manager, first!)
      expect(ours.text.toString()).toBe('')
    })

    it('an undo that changes nothing returns null, as the stock manager does', () => {
      const ours = recording(1, true)
      const stock = stockSide(1)
      const peer = new Y.Doc()
      peer.clientID = 2
      for (const side of [ours, stock]) edit(side.doc, side.text, (t) => t.insert(0, 'gone'))
      // A peer deletes everything the step inserted.
      Y.applyUpdate(peer, Y.encodeStateAsUpdate(ours.doc))
      peer.getText('t').delete(0, 4)
      const deletion = Y.encodeStateAsUpdate(peer)
      Y.applyUpdate(ours.doc, deletion)
      Y.applyUpdate(stock.doc, deletion)
      expect(undoWith(ours.manager, ours.items[0]!)).toBeNull()
      expect(stock.manager.undo()).toBeNull()
      expect([ours.manager.undoStack.length, ours.manager.redoStack.length]).toEqual([0, 0])
    })

    it('empty items, and releasing items leaves the manager empty', () => {
      expect(isEmptyUndoItem(emptyUndoItem())).toBe(true)
      const ours = recording(1, true)
      edit(ours.doc, ours.text, (t) => t.insert(0, 'abc'))
      edit(ours.doc, ours.text, (t) => t.delete(0, 1))
      expect(ours.items.map(isEmptyUndoItem)).toEqual([false, false])
      releaseUndoItems(ours.manager, ours.items)
      expect([ours.manager.undoStack.length, ours.manager.redoStack.length]).toEqual([0, 0])
    })
  })

  describe('saved undo items, against the stock manager on the document they were made on', () => {
    /** A fresh copy of `source` as a garbage-collecting server serves it. */
    const reloaded = (source: Y.Doc): Y.Doc => {
      const server = new Y.Doc()
      Y.applyUpdate(server, Y.encodeStateAsUpdate(source))
      const doc = new Y.Doc()
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(server))
      return doc
    }

    it('undo a deletion whose text the copy had collected, and redo it, as the stock manager does', () => {
      const doc = new Y.Doc()
      const text = doc.getText('t')
      const manager = new Y.UndoManager(text, { captureTimeout: 0 })
      text.insert(0, 'keep this, drop that')
      text.delete(10, 10)
      const copy = reloaded(doc)
      const copyText = copy.getText('t')
      const copyManager = new Y.UndoManager(copyText, { captureTimeout: 0 })
      const [typing, deletion] = manager.undoStack
      for (const item of [typing!, deletion!]) {
        copyManager.undoStack.push(decodeUndoItem(copyText, encodeUndoItem(text, item)) as never)
      }
      manager.undo()
      copyManager.undo()
      expect(copyText.toString()).toBe(text.toString())
      expect(copyText.toString()).toBe('keep this, drop that')
      manager.redo()
      copyManager.redo()
      expect(copyText.toString()).toBe('keep this,')
      // Only the deleted items of the text took their text back, and they stay deleted.
      expect(Y.encodeStateVector(copy)).toEqual(Y.encodeStateVector(reloaded(copy)))
    })

    it('leaves out ids the copy does not have and deletions of items it has not deleted', () => {
      const doc = new Y.Doc()
      const text = doc.getText('t')
      const manager = new Y.UndoManager(text, { captureTimeout: 0 })
      text.insert(0, 'abc')
      const inserted = Y.encodeStateAsUpdate(doc)
      text.delete(0, 1)
      const other = new Y.Doc()
      other.getText('t').insert(0, 'other')
      const item = decodeUndoItem(other.getText('t'), encodeUndoItem(text, manager.undoStack[1]!))
      expect([item.insertions.clients.size, item.deletions.clients.size]).toEqual([0, 0])
      // A copy that has the text but not its deletion: nothing to bring back.
      const early = new Y.Doc()
      Y.applyUpdate(early, inserted)
      const step = decodeUndoItem(early.getText('t'), encodeUndoItem(text, manager.undoStack[1]!))
      expect(step.deletions.clients.size).toBe(0)
      expect(() => decodeUndoItem(text, new Uint8Array([9]))).toThrow()
    })

    it('redone links carry over: a relative position on the brought-back text resolves to its copy', () => {
      const doc = new Y.Doc()
      const text = doc.getText('t')
      const manager = new Y.UndoManager(text, { captureTimeout: 0 })
      text.insert(0, 'abcdef')
      const position = Y.createRelativePositionFromTypeIndex(text, 3, 0)
      text.delete(2, 3)
      manager.undo()
      expect(Y.createAbsolutePositionFromRelativePosition(position, doc)!.index).toBe(3)
      const deleted = Y.createDeleteSet()
      deleted.clients.set(doc.clientID, [{ clock: 2, len: 3 } as never])
      const copy = reloaded(doc)
      const copyText = copy.getText('t')
      expect(Y.createAbsolutePositionFromRelativePosition(position, copy)!.index).not.toBe(3)
      const linked = decodeRedoneLinks(copyText, encodeRedoneLinks(text, deleted))
      expect(linked.clients.get(doc.clientID)).toHaveLength(1)
      expect(Y.createAbsolutePositionFromRelativePosition(position, copy)!.index).toBe(3)
    })
  })
})
