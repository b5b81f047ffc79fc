import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import * as Y from 'yjs'

/**
 * Every read of Yjs internals the buffer makes, in one place.
 *
 * The buffer keeps its own index of a Y.Text's items (see `ItemIndex`) so that it never walks
 * the whole item list; for that it reads fields Yjs does not document: a type's `_start` and
 * `_item`, an item's `left`/`right`/`content`/`redone`, the struct store's per-client arrays
 * and a transaction's delete set. These functions read them in the shape Yjs 13.6 (checked
 * against 13.6.33) gives them; `yjs-internals.test.ts` checks each one against what stock
 * Yjs reports through its public API, so a Yjs release that changes a shape fails there
 * first. No other module of the buffer reads a Yjs field that is not documented.
 *
 * @module
 */

/** An item of a Y.Text as the buffer's index sees it: its first id and its length. */
export type TextItem = Y.Item

/**
 * Calls `visit` with each item of `text`, first to last: its id, its length, and whether it
 * is text that can be seen (not deleted, string content).
 *
 * @example forEachTextItem(ytext, (client, clock, length, visible) => spans.push(...))
 */
export const forEachTextItem = (
  text: Y.Text,
  visit: (client: number, clock: number, length: number, visible: boolean) => void,
): void => {
  for (let item = text._start; item !== null; item = item.right) {
    visit(item.id.client, item.id.clock, item.length, isVisibleText(item))
  }
}

/** Whether `item` is text a reader sees: not deleted, and string content. */
export const isVisibleText = (item: TextItem): boolean =>
  !item.deleted && item.content.constructor === Y.ContentString

/** The client of `item`'s first id. */
export const itemClient = (item: TextItem): number => item.id.client

/** The clock of `item`'s first id. */
export const itemClock = (item: TextItem): number => item.id.clock

/** Number of clocks (UTF-16 code units, for text) `item` spans. */
export const itemLength = (item: TextItem): number => item.length

/** The item to the left of `item` in its parent's list (deleted ones included), or null. */
export const leftItem = (item: TextItem): TextItem | null => item.left

/** The string an item holds ('' for content that is not a string). */
export const itemText = (item: TextItem): string =>
  item.content instanceof Y.ContentString ? item.content.str : ''

/**
 * Calls `visit` with each item `transaction` made in `text` (clocks from its before state on,
 * per client), in store order. Items of other types are skipped.
 */
export const forEachItemMadeIn = (
  transaction: Y.Transaction,
  text: Y.Text,
  visit: (item: TextItem) => void,
): void => {
  const store = transaction.doc.store
  const before = transaction.beforeState
  for (const [client, after] of transaction.afterState) {
    const start = before.get(client) ?? 0
    if (after === start) continue
    const structs = store.clients.get(client)
    if (structs === undefined) continue
    for (let i = Y.findIndexSS(structs, start); i < structs.length; i++) {
      const struct = structs[i]!
      if (struct instanceof Y.Item && struct.parent === text) visit(struct)
    }
  }
}

/** Whether `item` was made by `transaction` (its clock is past the before state). */
export const isMadeIn = (transaction: Y.Transaction, item: TextItem): boolean =>
  item.id.clock >= (transaction.beforeState.get(item.id.client) ?? 0)

/** Calls `visit` with each run of ids (`client`, clocks [clock, clock + len)) `transaction` deleted. */
export const forEachDeletedRun = (
  transaction: Y.Transaction,
  visit: (client: number, clock: number, len: number) => void,
): void => {
  for (const [client, runs] of transaction.deleteSet.clients) {
    for (const run of runs) visit(client, run.clock, run.len)
  }
}

/** Number of ids `transaction` deleted, over all clients. */
export const deletedLength = (transaction: Y.Transaction): number => {
  let deleted = 0
  for (const runs of transaction.deleteSet.clients.values()) {
    for (const run of runs) deleted += run.len
  }
  return deleted
}

/**
 * Whether `client` is the only client whose clock `transaction` advanced, and by exactly `by`
 * (`by` may be 0: then no clock advanced).
 */
export const onlyClientAdvancedBy = (
  transaction: Y.Transaction,
  client: number,
  by: number,
): boolean => {
  for (const [other, after] of transaction.afterState) {
    const grown = after - (transaction.beforeState.get(other) ?? 0)
    if (grown !== (other === client ? by : 0)) return false
  }
  return true
}

/** The clock the next item `client` makes in `doc` will get (its state). */
export const nextClock = (doc: Y.Doc, client: number): number => Y.getState(doc.store, client)

/**
 * The text deleted or present at ids (`client`, [clock, clock + len)), read from the items
 * (deleted items keep their content until the transaction's cleanup collects them).
 */
export const textOfIds = (doc: Y.Doc, client: number, clock: number, len: number): string => {
  const store = doc.store
  let text = ''
  const end = clock + len
  while (clock < end) {
    const item = Y.getItem(store, Y.createID(client, clock)) as Y.Item
    const take = Math.min(end, item.id.clock + item.length) - clock
    const content = item.content
    if (content instanceof Y.ContentString) {
      const from = clock - item.id.clock
      text += content.str.slice(from, from + take)
    }
    clock += take
  }
  return text
}

/**
 * Where the character with id (`client`, `clock`) of `text` lives now: itself, or, when undo
 * deleted it and redo made it again, the id of the copy redo made (following `redone` links,
 * as Yjs resolves relative positions). Null when `doc` has no such id yet or it is not in `text`.
 */
export const followRedone = (
  text: Y.Text,
  client: number,
  clock: number,
): { client: number; clock: number } | null => {
  const store = text.doc!.store
  if (Y.getState(store, client) <= clock) return null
  let item = Y.getItem(store, Y.createID(client, clock))
  while (item instanceof Y.Item && item.redone !== null) {
    const diff = clock - item.id.clock
    client = item.redone.client
    clock = item.redone.clock + diff
    if (Y.getState(store, client) <= clock) return null
    item = Y.getItem(store, Y.createID(client, clock))
  }
  if (!(item instanceof Y.Item) || item.parent !== text) return null
  return { client, clock }
}

/** The id of the item holding `text` when it is nested in another type, null for a root type. */
export const ownerId = (text: Y.Text): Y.ID | null => text._item?.id ?? null

/** The name `text` has among its document's root types, or null when it is nested. */
export const rootName = (text: Y.Text): string | null => {
  if (text._item !== null) return null
  return Y.findRootTypeKey(text)
}

/** Whether `name` is the root type `text` of its document. */
export const isRootNamed = (text: Y.Text, name: string): boolean =>
  text._item === null && (text.doc!.share.get(name) as unknown) === text

/**
 * A relative position in `text` tied to the character with id `item` (null: the end when
 * `assoc >= 0`, the start otherwise), as `Y.createRelativePositionFromTypeIndex` makes them.
 */
export const relativePosition = (
  owner: Y.ID | null,
  name: string | null,
  item: Y.ID | null,
  assoc: number,
): Y.RelativePosition => new Y.RelativePosition(owner, name, item, assoc)

// Undo: the buffer keeps its own undo stack of these items and has a `Y.UndoManager` undo
// or redo one item at a time (redoing deleted items as Yjs does, so that relative positions
// follow them, is not exported any other way). Between two such calls the manager's stacks
// are empty.

type DeleteSet = ReturnType<typeof Y.createDeleteSet>
type DeleteRun = DeleteSet['clients'] extends Map<number, (infer Run)[]> ? Run : never
type ManagerItem = Y.UndoManager['undoStack'][number]

/**
 * One undo step in the shape `Y.UndoManager` keeps on its stacks (its `StackItem`): the ids a
 * step deleted and the ids it inserted, as delete sets, and a `meta` map.
 */
export interface UndoItem {
  deletions: DeleteSet
  insertions: DeleteSet
  readonly meta: Map<unknown, unknown>
}

/**
 * The undo item of one local transaction. The insertions are one run of the local client's
 * clocks, turned into a delete set only when the step is undone or joined, and `meta` is
 * made on first use: recording a step costs a few fields.
 */
class TransactionItem implements UndoItem {
  private inserted: DeleteSet | null = null
  private savedMeta: Map<unknown, unknown> | null = null

  constructor(
    public deletions: DeleteSet,
    private readonly client: number,
    private readonly fromClock: number,
    private readonly toClock: number,
  ) {}

  get insertions(): DeleteSet {
    if (this.inserted === null) {
      this.inserted = Y.createDeleteSet()
      if (this.toClock > this.fromClock) {
        const run = { clock: this.fromClock, len: this.toClock - this.fromClock }
        this.inserted.clients.set(this.client, [run as DeleteRun])
      }
    }
    return this.inserted
  }

  set insertions(value: DeleteSet) {
    this.inserted = value
  }

  get meta(): Map<unknown, unknown> {
    this.savedMeta ??= new Map()
    return this.savedMeta
  }
}

/**
 * The undo item of a local `transaction` that changed the text, as `Y.UndoManager` would
 * capture it; call it from an observer of the text (before Yjs collects deleted items: they
 * are kept from collection here, so that undo can bring them back). `onlyLocalClient` tells
 * that no other client's clock advanced (saves checking).
 */
export const undoItemOf = (transaction: Y.Transaction, onlyLocalClient: boolean): UndoItem => {
  const client = transaction.doc.clientID
  const fromClock = transaction.beforeState.get(client) ?? 0
  const toClock = transaction.afterState.get(client) ?? 0
  const item = new TransactionItem(transaction.deleteSet, client, fromClock, toClock)
  if (!onlyLocalClient && !onlyClientAdvancedBy(transaction, client, toClock - fromClock)) {
    item.insertions = insertionsOf(transaction)
  }
  if (transaction.deleteSet.clients.size > 0) {
    Y.iterateDeletedStructs(transaction, transaction.deleteSet, keepItem)
  }
  return item
}

/** An undo item that inserts and deletes nothing (Atom's step for an empty edit). */
export const emptyUndoItem = (): UndoItem => new TransactionItem(Y.createDeleteSet(), 0, 0, 0)

/** Whether `item` inserts and deletes nothing. */
export const isEmptyUndoItem = (item: UndoItem): boolean =>
  item.insertions.clients.size === 0 && item.deletions.clients.size === 0

/** Folds `later` into `target`, as the manager joins transactions captured together. */
export const joinUndoItems = (target: UndoItem, later: UndoItem): void => {
  target.insertions = Y.mergeDeleteSets([target.insertions, later.insertions])
  target.deletions = Y.mergeDeleteSets([target.deletions, later.deletions])
}

/**
 * Has `manager` undo `item` (its stacks must be empty), and returns the item that redoes it,
 * or null when undoing it changed nothing. The manager never sees the item again.
 */
export const undoWith = (manager: Y.UndoManager, item: UndoItem): UndoItem | null => {
  manager.undoStack.push(item as ManagerItem)
  const done = manager.undo()
  manager.undoStack.length = 0
  const redo = manager.redoStack.pop() ?? null
  manager.redoStack.length = 0
  return done === null ? null : redo
}

/**
 * Has `manager` redo `item` (its stacks must be empty), and returns the item that undoes it
 * again, or null when redoing it changed nothing.
 */
export const redoWith = (manager: Y.UndoManager, item: UndoItem): UndoItem | null => {
  manager.redoStack.push(item as ManagerItem)
  const done = manager.redo()
  manager.redoStack.length = 0
  const undo = manager.undoStack.pop() ?? null
  manager.undoStack.length = 0
  return done === null ? null : undo
}

/**
 * Lets Yjs collect the deleted items `items` kept for undo, as `manager.clear` does for the
 * items of its own stacks.
 */
export const releaseUndoItems = (manager: Y.UndoManager, items: readonly UndoItem[]): void => {
  if (items.length === 0) return
  for (const item of items) manager.undoStack.push(item as ManagerItem)
  manager.clear(true, false)
}

/** Everything `transaction` inserted, as a delete set (what Y.UndoManager keeps as insertions). */
const insertionsOf = (transaction: Y.Transaction): DeleteSet => {
  const insertions = Y.createDeleteSet()
  for (const [client, after] of transaction.afterState) {
    const before = transaction.beforeState.get(client) ?? 0
    if (after > before) {
      const run = { clock: before, len: after - before } as DeleteRun
      insertions.clients.set(client, [run])
    }
  }
  return insertions
}

/** Keeps a deleted item (and the types holding it) from garbage collection. */
const keepItem = (struct: Y.Item | Y.GC): void => {
  let item: Y.Item | null = struct instanceof Y.Item ? struct : null
  while (item !== null && !item.keep) {
    item.keep = true
    item = (item.parent as Y.AbstractType<unknown>)._item
  }
}

// Saved undo steps: an item's ids travel as two delete sets, with the text of the deleted
// items it names, so that a buffer over the same document elsewhere (another page, another
// device) can undo and redo it as this one would: a document loaded from a server or a store
// has the content of its deleted items collected. Apart from the steps, the `redone` links
// the history's undo and redo made travel too (`encodeRedoneLinks`): Yjs keeps them in memory
// only, and both undo and the resolution of relative positions follow them.

/** Version of the encoding `encodeUndoItem` writes. */
const UNDO_ITEM_VERSION = 1

const writeDeleteSet = (encoder: encoding.Encoder, ds: DeleteSet): void => {
  encoding.writeVarUint(encoder, ds.clients.size)
  for (const [client, runs] of ds.clients) {
    encoding.writeVarUint(encoder, client)
    encoding.writeVarUint(encoder, runs.length)
    for (const run of runs) {
      encoding.writeVarUint(encoder, run.clock)
      encoding.writeVarUint(encoder, run.len)
    }
  }
}

const readRuns = (decoder: decoding.Decoder): Array<[number, number, number]> => {
  const runs: Array<[number, number, number]> = []
  const clients = decoding.readVarUint(decoder)
  for (let i = 0; i < clients; i++) {
    const client = decoding.readVarUint(decoder)
    const count = decoding.readVarUint(decoder)
    for (let j = 0; j < count; j++) {
      runs.push([client, decoding.readVarUint(decoder), decoding.readVarUint(decoder)])
    }
  }
  return runs
}

/**
 * Calls `visit` with each struct of `doc` that holds ids of the run (`client`, `clock`,
 * `len`), and the part of the run it holds (`from` to `to`, clocks). Reads only: no struct is
 * split. Ids the document does not have are skipped.
 */
const forEachStructIn = (
  doc: Y.Doc,
  client: number,
  clock: number,
  len: number,
  visit: (struct: Y.Item | Y.GC, from: number, to: number) => void,
): void => {
  const structs = doc.store.clients.get(client)
  if (structs === undefined || len <= 0) return
  const end = Math.min(clock + len, Y.getState(doc.store, client))
  if (clock >= end) return
  for (let i = Y.findIndexSS(structs, clock); i < structs.length; i++) {
    const struct = structs[i]!
    const start = struct.id.clock
    if (start >= end) break
    visit(struct as Y.Item | Y.GC, Math.max(start, clock), Math.min(start + struct.length, end))
  }
}

const forEachRun = (ds: DeleteSet, visit: (client: number, clock: number, len: number) => void) => {
  for (const [client, runs] of ds.clients) {
    for (const run of runs) visit(client, run.clock, run.len)
  }
}

/**
 * The ids of `item` in a form that can be stored and sent, with what another copy of the
 * document needs to undo and redo it: the text of the deleted items it names (when this
 * document still has it).
 *
 * @example const bytes = encodeUndoItem(ytext, step.item)
 */
export const encodeUndoItem = (text: Y.Text, item: UndoItem): Uint8Array => {
  const doc = text.doc!
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, UNDO_ITEM_VERSION)
  writeDeleteSet(encoder, item.insertions)
  writeDeleteSet(encoder, item.deletions)
  const pieces: Array<[number, number, string]> = []
  forEachRun(item.deletions, (client, clock, len) => {
    forEachStructIn(doc, client, clock, len, (struct, from, to) => {
      if (!(struct instanceof Y.Item) || !(struct.content instanceof Y.ContentString)) return
      const offset = struct.id.clock
      pieces.push([client, from, struct.content.str.slice(from - offset, to - offset)])
    })
  })
  encoding.writeVarUint(encoder, pieces.length)
  for (const [client, clock, piece] of pieces) {
    encoding.writeVarUint(encoder, client)
    encoding.writeVarUint(encoder, clock)
    encoding.writeVarString(encoder, piece)
  }
  return encoding.toUint8Array(encoder)
}

/**
 * The undo item `bytes` (from `encodeUndoItem`) names in the document of `text`, made ready
 * to undo there: deleted items of `text` whose content this document has collected get their
 * text back (they stay deleted; the text is what undoing their deletion inserts again), and
 * ids this document does not have, or deletions of items that are not deleted here, are left
 * out. Throws when `bytes` does not decode.
 *
 * @example const item = decodeUndoItem(ytext, bytes)
 */
export const decodeUndoItem = (text: Y.Text, bytes: Uint8Array): UndoItem => {
  const doc = text.doc!
  const decoder = decoding.createDecoder(bytes)
  if (decoding.readVarUint(decoder) !== UNDO_ITEM_VERSION) {
    throw new RangeError('unknown undo step encoding')
  }
  const inserted = readRuns(decoder)
  const deleted = readRuns(decoder)
  const pieces: Array<[number, number, string]> = []
  const pieceCount = decoding.readVarUint(decoder)
  for (let i = 0; i < pieceCount; i++) {
    const client = decoding.readVarUint(decoder)
    pieces.push([client, decoding.readVarUint(decoder), decoding.readVarString(decoder)])
  }
  const insertions = Y.createDeleteSet()
  for (const [client, clock, len] of inserted) {
    forEachStructIn(doc, client, clock, len, (_struct, from, to) =>
      addRun(insertions, client, from, to - from),
    )
  }
  const deletions = Y.createDeleteSet()
  for (const [client, clock, len] of deleted) {
    forEachStructIn(doc, client, clock, len, (struct, from, to) => {
      if (struct instanceof Y.Item && struct.deleted && struct.parent === text) {
        addRun(deletions, client, from, to - from)
      }
    })
  }
  const item = new TransactionItem(Y.mergeDeleteSets([deletions]), 0, 0, 0)
  item.insertions = Y.mergeDeleteSets([insertions])
  if (pieces.length > 0) {
    doc.transact((transaction) => {
      for (const [client, clock, piece] of pieces) {
        restoreDeletedText(transaction, text, client, clock, piece)
      }
    }, UNDO_RESTORE_ORIGIN)
  }
  if (item.deletions.clients.size > 0) {
    doc.transact((transaction) => {
      Y.iterateDeletedStructs(transaction, item.deletions, keepItem)
    }, UNDO_RESTORE_ORIGIN)
  }
  return item
}

/** Origin of the transactions that only split items to put back what a saved step needs. */
const UNDO_RESTORE_ORIGIN = { name: 'undo-restore' }

const addRun = (ds: DeleteSet, client: number, clock: number, len: number): void => {
  if (len <= 0) return
  let runs = ds.clients.get(client)
  if (runs === undefined) {
    runs = []
    ds.clients.set(client, runs)
  }
  runs.push({ clock, len } as DeleteRun)
}

/** The items of `client` from `clock` to `clock + len`, split to those bounds. */
const itemsCleanBetween = (
  transaction: Y.Transaction,
  client: number,
  clock: number,
  len: number,
): Array<Y.Item | Y.GC> => {
  const doc = transaction.doc
  const end = Math.min(clock + len, Y.getState(doc.store, client))
  if (clock >= end) return []
  Y.getItemCleanStart(transaction, Y.createID(client, clock))
  Y.getItemCleanEnd(transaction, doc.store, Y.createID(client, end - 1))
  const found: Array<Y.Item | Y.GC> = []
  forEachStructIn(doc, client, clock, end - clock, (struct) => found.push(struct))
  return found
}

const restoreDeletedText = (
  transaction: Y.Transaction,
  text: Y.Text,
  client: number,
  clock: number,
  piece: string,
): void => {
  // Only items this document has collected take the text: never one whose content is there.
  let collected = false
  forEachStructIn(transaction.doc, client, clock, piece.length, (struct) => {
    if (isCollectedTextItem(struct, text)) collected = true
  })
  if (!collected) return
  for (const struct of itemsCleanBetween(transaction, client, clock, piece.length)) {
    if (!isCollectedTextItem(struct, text)) continue
    const item = struct as Y.Item
    const offset = item.id.clock - clock
    item.content = new Y.ContentString(piece.slice(offset, offset + item.length))
    // As Yjs marks an item whose content counts (its constructor reads `isCountable`).
    item.info |= COUNTABLE_BIT
  }
}

/** Bit 2 of an item's `info`: its content counts towards the type's length. */
const COUNTABLE_BIT = 2

const isCollectedTextItem = (struct: Y.Item | Y.GC, text: Y.Text): boolean =>
  struct instanceof Y.Item &&
  struct.deleted &&
  struct.parent === text &&
  struct.content instanceof Y.ContentDeleted

const restoreRedoneLink = (
  transaction: Y.Transaction,
  text: Y.Text,
  client: number,
  clock: number,
  len: number,
  toClient: number,
  toClock: number,
): boolean => {
  const store = transaction.doc.store
  if (len <= 0 || Y.getState(store, toClient) < toClock + len) return false
  let linked = false
  for (const struct of itemsCleanBetween(transaction, client, clock, len)) {
    if (!(struct instanceof Y.Item) || struct.redone !== null || !struct.deleted) continue
    if (struct.parent !== text) continue
    struct.redone = Y.createID(toClient, toClock + (struct.id.clock - clock))
    linked = true
  }
  return linked
}

/**
 * The `redone` links of the items of `text` in `runs` (the items a history's undo and redo
 * brought back), followed to their ends, in a form that can be stored and sent.
 *
 * @example const bytes = encodeRedoneLinks(ytext, history.linked)
 */
export const encodeRedoneLinks = (text: Y.Text, runs: DeleteSet): Uint8Array => {
  const doc = text.doc!
  const links: Array<[number, number, number, number, number]> = []
  const seen = new Set<Y.Item>()
  const follow = (struct: Y.Item | Y.GC | undefined): void => {
    while (struct instanceof Y.Item && struct.redone !== null && !seen.has(struct)) {
      seen.add(struct)
      const { client, clock } = struct.id
      links.push([client, clock, struct.length, struct.redone.client, struct.redone.clock])
      if (Y.getState(doc.store, struct.redone.client) <= struct.redone.clock) return
      struct = Y.getItem(doc.store, struct.redone) as Y.Item | Y.GC
    }
  }
  forEachRun(runs, (client, clock, len) =>
    forEachStructIn(doc, client, clock, len, (struct) => {
      if (struct instanceof Y.Item && struct.parent === text) follow(struct)
    }),
  )
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, links.length)
  for (const link of links) for (const n of link) encoding.writeVarUint(encoder, n)
  return encoding.toUint8Array(encoder)
}

/**
 * Sets in the document of `text` the `redone` links `bytes` (from `encodeRedoneLinks`) hold,
 * where it has both ends and the item has none yet; returns the items linked, as runs (to
 * save again). Throws when `bytes` does not decode.
 *
 * @example history.linked = decodeRedoneLinks(ytext, saved.links)
 */
export const decodeRedoneLinks = (text: Y.Text, bytes: Uint8Array): DeleteSet => {
  const doc = text.doc!
  const decoder = decoding.createDecoder(bytes)
  const links: number[][] = []
  const count = decoding.readVarUint(decoder)
  for (let i = 0; i < count; i++) {
    const link: number[] = []
    for (let j = 0; j < 5; j++) link.push(decoding.readVarUint(decoder))
    links.push(link)
  }
  const linked = Y.createDeleteSet()
  if (links.length === 0) return linked
  doc.transact((transaction) => {
    for (const [client, clock, len, toClient, toClock] of links) {
      if (restoreRedoneLink(transaction, text, client!, clock!, len!, toClient!, toClock!)) {
        addRun(linked, client!, clock!, len!)
      }
    }
  }, UNDO_RESTORE_ORIGIN)
  return Y.mergeDeleteSets([linked])
}

/** `runs` with the runs of `more` added. */
export const addRuns = (runs: DeleteSet, more: DeleteSet): DeleteSet =>
  more.clients.size === 0 ? runs : Y.mergeDeleteSets([runs, more])

/** An empty set of runs. */
export const noRuns = (): DeleteSet => Y.createDeleteSet()
