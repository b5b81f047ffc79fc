/**
 * Peers for ratio rows: the same work done on a bare `Y.Text`, plus large documents with a
 * realistically fragmented Yjs item list for size-scaling suites.
 */
import * as prng from 'lib0/prng'
import * as Y from 'yjs'
import type { SuiteBuilder } from './harness.js'
import { loadTrace, type Trace, type TraceName } from './traces.js'

/** Name of the shared text in the peers' documents. */
export const TEXT_NAME = 'text'

/** Origin of the peers' transactions: an object, as an editor's own origin would be. */
export const PEER_ORIGIN: object = Object.freeze({ peer: 'bench' })

/** A new document whose text holds `content`. */
export function newYText(content = ''): Y.Text {
  const text = new Y.Doc().getText(TEXT_NAME)
  if (content !== '') text.insert(0, content)
  return text
}

/** Options for {@link replayOnYText}. */
export interface ReplayOptions {
  /** `'patch'` (default): a transaction per patch; `'txn'`: one per trace transaction. */
  readonly transactions?: 'patch' | 'txn'
}

/**
 * Replays `trace` on a bare Y.Text by index: `delete(pos, del)` then `insert(pos, text)`, each
 * patch in its own `doc.transact` with {@link PEER_ORIGIN}. `text` must hold the trace's
 * `startContent` (the default is a new document that does). Returns the text.
 * Example: `replayOnYText(loadTrace('rustcode')).toString() === loadTrace('rustcode').endContent`.
 */
export function replayOnYText(
  trace: Trace,
  text: Y.Text = newYText(trace.startContent),
  options: ReplayOptions = {},
): Y.Text {
  const doc = text.doc
  if (doc === null) throw new TypeError('replayOnYText needs a Y.Text that is part of a Y.Doc')
  if (options.transactions === 'txn') {
    for (const txn of trace.txns) {
      doc.transact(() => {
        for (const p of txn) applyPatch(text, p.pos, p.del, p.text)
      }, PEER_ORIGIN)
    }
  } else {
    for (const p of trace.patches) {
      doc.transact(() => applyPatch(text, p.pos, p.del, p.text), PEER_ORIGIN)
    }
  }
  return text
}

function applyPatch(text: Y.Text, pos: number, del: number, insert: string): void {
  if (del > 0) text.delete(pos, del)
  if (insert.length > 0) text.insert(pos, insert)
}

/** Items in a Y.Text's list, live and deleted (deleted ones are still walked past). */
export function countItems(text: Y.Text): { items: number; deleted: number } {
  let items = 0
  let deleted = 0
  for (let item = text._start; item !== null; item = item.right) {
    items++
    if (item.deleted) deleted++
  }
  return { items, deleted }
}

/** Options for {@link buildFragmentedDoc}. */
export interface FragmentedDocOptions {
  /** Length of the result in UTF-16 units, e.g. 1_000_000. */
  readonly length: number
  /** The trace replayed first; default `'automerge-paper'`. */
  readonly trace?: TraceName
  /** Replay only the quick prefix of the trace (for `--quick` suites). */
  readonly quick?: boolean
  /** Seed of the growth edits; default 1. The same options build the same item list. */
  readonly seed?: number
  /**
   * Growth switches to a new client id after this many characters (default 50,000), as a
   * document edited over many sessions has many clients. It matters: Yjs keeps each client's
   * items in one array, so splitting an item costs O(items of that client). `Infinity` keeps
   * the replaying client for everything.
   */
  readonly charsPerClient?: number
  readonly progress?: (message: string) => void
}

/** A built document, its encoded state (to make fresh copies) and its shape. */
export interface FragmentedDoc {
  readonly doc: Y.Doc
  readonly text: Y.Text
  /** `Y.encodeStateAsUpdate(doc)` right after the build; see {@link copyDoc}. */
  readonly update: Uint8Array
  readonly length: number
  readonly items: number
  readonly deletedItems: number
  /** Clients that made the items. */
  readonly clients: number
  readonly buildMs: number
}

const built = new Map<string, Omit<FragmentedDoc, 'doc' | 'text'>>()
const replayed = new Map<string, Uint8Array>()

/**
 * Builds a document of exactly `length` characters whose Yjs item list is fragmented like
 * real editing: the trace is replayed, then the document grows by blocks of the trace's text
 * pasted at random places and edited with small random inserts and deletes, as many edits
 * per block as keep the trace's items-per-character density. A document longer than `length`
 * after the replay is cut at the end. The replay is one client; growth takes a new client
 * every `charsPerClient` characters. Deterministic for equal options; the replay and the
 * result are cached encoded, so a second call costs one `Y.applyUpdate`.
 * Example: `const { update } = buildFragmentedDoc({ length: 1_000_000 })`.
 */
export function buildFragmentedDoc(options: FragmentedDocOptions): FragmentedDoc {
  const { length, trace: traceName = 'automerge-paper', quick = false, seed = 1 } = options
  const charsPerClient = options.charsPerClient ?? 50_000
  if (!Number.isInteger(length) || length < 0) {
    throw new RangeError(`length must be a non-negative integer, got ${length}`)
  }
  if (!(charsPerClient > 0)) {
    throw new RangeError(`charsPerClient must be positive, got ${charsPerClient}`)
  }
  const key = `${traceName}:${quick}:${seed}:${charsPerClient}:${length}`
  const cached = built.get(key)
  if (cached !== undefined) return { ...cached, ...copyDoc(cached.update) }

  const progress = options.progress ?? (() => {})
  const started = performance.now()
  const trace = loadTrace(traceName, { quick })
  const replayKey = `${traceName}:${quick}`
  const replay = replayed.get(replayKey)
  let text: Y.Text
  if (replay === undefined) {
    progress(`building a ${formatChars(length)}-char document: replaying ${traceName}...`)
    text = replayOnYText(trace)
    replayed.set(replayKey, Y.encodeStateAsUpdate(text.doc!))
  } else {
    progress(`building a ${formatChars(length)}-char document from the replayed ${traceName}...`)
    text = copyDoc(replay).text
    // Continue as the replaying client, as if the copy were the original.
    const [replayClient] = text.doc!.store.clients.keys()
    if (replayClient !== undefined) text.doc!.clientID = replayClient
  }
  const doc = text.doc!
  grow(text, length, trace, seed, charsPerClient, progress)
  if (text.length > length) {
    const cut = trace.hasAstral ? pairSafe(text.toString(), length) : length
    doc.transact(() => text.delete(cut, text.length - cut), PEER_ORIGIN)
  }
  if (text.length !== length) {
    throw new Error(`built a document of ${text.length} characters instead of ${length}`)
  }
  const { items, deleted } = countItems(text)
  const result = {
    update: Y.encodeStateAsUpdate(doc),
    length,
    items,
    deletedItems: deleted,
    clients: doc.store.clients.size,
    buildMs: performance.now() - started,
  }
  built.set(key, result)
  progress(
    `built ${formatChars(length)} chars, ${items.toLocaleString('en-US')} items, ` +
      `${result.clients} client${result.clients === 1 ? '' : 's'} ` +
      `in ${(result.buildMs / 1000).toFixed(1)}s`,
  )
  return { ...result, doc, text }
}

/** A fresh document from an encoded state, e.g. a {@link FragmentedDoc}'s `update`. */
export function copyDoc(update: Uint8Array): { doc: Y.Doc; text: Y.Text } {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  return { doc, text: doc.getText(TEXT_NAME) }
}

/**
 * Reports a built document's shape as a row `<label>: Yjs items / clients`, so a suite's table
 * says what kind of document its times were measured on.
 */
export function reportDocumentShape(s: SuiteBuilder, label: string, built: FragmentedDoc): void {
  s.report({
    name: `${label}: Yjs items / clients`,
    value: built.items,
    unit: `items / ${built.clients} client${built.clients === 1 ? '' : 's'}`,
  })
}

/** Where {@link pasteAndEdit} pastes, how much, and how many small edits follow. */
export interface PasteAndEdit {
  readonly at: number
  /** Where in the source the pasted characters start. */
  readonly from: number
  readonly size: number
  readonly edits: number
}

/**
 * Pastes `size` characters of `source` (no surrogate pairs) from `from` at `at`,
 * then makes `edits` small seeded deletions and insertions inside the pasted block, each its
 * own transaction: how a document grows a realistically fragmented Yjs item list.
 */
export function pasteAndEdit(text: Y.Text, gen: prng.PRNG, source: string, paste: PasteAndEdit) {
  const doc = text.doc!
  const { at, from, size } = paste
  doc.transact(() => text.insert(at, source.slice(from, from + size)), PEER_ORIGIN)
  let span = size
  for (let e = 0; e < paste.edits && span > 1; e++) {
    const offset = at + prng.int32(gen, 0, span - 1)
    if (prng.bool(gen)) {
      const del = Math.min(prng.int32(gen, 1, 8), at + span - offset)
      doc.transact(() => text.delete(offset, del), PEER_ORIGIN)
      span -= del
    } else {
      const start = prng.int32(gen, 0, source.length - 12)
      const insert = source.slice(start, start + prng.int32(gen, 1, 12))
      doc.transact(() => text.insert(offset, insert), PEER_ORIGIN)
      span += insert.length
    }
  }
}

const BLOCK_MIN = 200
const BLOCK_MAX = 4_000
const MAX_GROWTH_BLOCKS = 1_000_000
const ITEMS_PER_EDIT = 1.8

function grow(
  text: Y.Text,
  length: number,
  trace: Trace,
  seed: number,
  charsPerClient: number,
  progress: (m: string) => void,
) {
  if (text.length >= length) return
  const doc = text.doc!
  const gen = prng.create(seed)
  const newSession = () => {
    let id = prng.uint32(gen, 1, 0x7fffffff)
    while (doc.store.clients.has(id)) id = prng.uint32(gen, 1, 0x7fffffff)
    // Yjs itself changes a document's client id between transactions on a clash.
    doc.clientID = id
  }
  if (charsPerClient !== Number.POSITIVE_INFINITY) newSession()
  let sessionStart = text.length
  const { items } = countItems(text)
  // Match the replayed trace's items per character; a small edit adds about 1.8 items
  // (a split plus the new or deleted piece, less the merges of adjacent deletions).
  const density = text.length > 0 ? items / text.length : 0.1
  // Growth text stays in the BMP, so offsets inside a block never split a surrogate pair.
  let source = trace.endContent.replace(/[\uD800-\uDFFF]/g, '?')
  if (source.length === 0) source = 'The quick brown fox jumps over the lazy dog.\n'
  while (source.length < BLOCK_MAX * 2) source += source
  let reported = text.length
  for (let block = 0; text.length < length; block++) {
    if (block >= MAX_GROWTH_BLOCKS) throw new Error('document growth did not converge')
    const size = prng.int32(gen, BLOCK_MIN, BLOCK_MAX)
    const from = prng.int32(gen, 0, source.length - size)
    let at = prng.int32(gen, 0, text.length)
    if (trace.hasAstral) at = pairSafe(text.toString(), at)
    const edits = Math.round((size * density) / ITEMS_PER_EDIT)
    pasteAndEdit(text, gen, source, { at, from, size, edits })
    if (text.length - sessionStart >= charsPerClient) {
      newSession()
      sessionStart = text.length
    }
    if (text.length - reported >= 200_000) {
      reported = text.length
      progress(`  ${formatChars(text.length)} / ${formatChars(length)} chars`)
    }
  }
}

/** Moves `pos` back off the middle of a surrogate pair in `s`. */
function pairSafe(s: string, pos: number): number {
  const before = s.charCodeAt(pos - 1)
  const after = s.charCodeAt(pos)
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff ? pos - 1 : pos
}

function formatChars(n: number): string {
  if (n >= 1_000_000 && n % 100_000 === 0) return `${n / 1_000_000}M`
  if (n >= 1_000 && n % 100 === 0) return `${n / 1_000}k`
  return n.toLocaleString('en-US')
}

/** What `typeKeystrokes` returns: one update per keystroke, and the text after all of them. */
export interface Keystrokes {
  readonly updates: readonly Uint8Array[]
  readonly text: string
}

/**
 * Another peer's keystrokes on a copy of the document `base` (an encoded update): one letter
 * at a seeded random place each time, every one in its own transaction and so its own update.
 * Example: `for (const u of typeKeystrokes(prng.create(1), update, 500).updates) Y.applyUpdate(doc, u)`.
 */
export function typeKeystrokes(gen: prng.PRNG, base: Uint8Array, count: number): Keystrokes {
  const { doc, text } = copyDoc(base)
  const updates: Uint8Array[] = []
  doc.on('update', (u: Uint8Array) => updates.push(u))
  for (let i = 0; i < count; i++) {
    text.insert(prng.int32(gen, 0, text.length), prng.letter(gen))
  }
  if (updates.length !== count) {
    throw new Error(`${count} keystrokes made ${updates.length} updates`)
  }
  const typed = text.toString()
  doc.destroy()
  return { updates, text: typed }
}

/** A document length as a short label: `100k chars`, `1M chars`. */
export function charsLabel(length: number): string {
  if (length >= 1_000_000) return `${length / 1_000_000}M chars`
  return `${length / 1_000}k chars`
}
