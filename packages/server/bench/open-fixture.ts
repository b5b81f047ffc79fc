/**
 * The persisted document the open-document benchmark opens: one room in a `SqliteStore` file
 * whose log holds a long history, built once and cached under `.bench-results/cache/`.
 *
 * The history is real editing: a trace replayed, then the document grown by seeded pastes
 * and small edits by a new client every 50,000 characters, one Yjs update per transaction.
 * Consecutive updates are merged into as many stored updates as asked for (what the server
 * stores when updates arrive faster than its disk writes), and appended through the store's
 * own `append`, as the server appends them.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as prng from 'lib0/prng'
import * as Y from 'yjs'
import { newYText, pasteAndEdit, replayOnYText, TEXT_NAME } from '../../../bench/peers.js'
import { loadTrace } from '../../../bench/traces.js'
import { SqliteStore } from '../src/index.js'

/** Bumped whenever the way the fixture is built changes, so stale caches are rebuilt. */
const FIXTURE_VERSION = 1

/** The room the fixture's document is stored under. */
export const FIXTURE_ROOM = 'opened-document'

/** The SQLite file's name inside a fixture folder (the server's `--data` layout). */
export const FIXTURE_DB = 'tandem.sqlite'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const CACHE_DIR = join(REPO_ROOT, '.bench-results', 'cache')

/** Sizes of a fixture. */
export interface FixtureSize {
  /** Characters of the document (UTF-16 units). */
  readonly length: number
  /** Rows of the `updates` table: stored updates in the room's log. */
  readonly updates: number
}

/** A built fixture: a folder holding the SQLite file, and what it holds. */
export interface Fixture extends FixtureSize {
  readonly folder: string
  /** The SQLite file. */
  readonly file: string
  /** The document's text, for checks. */
  readonly text: string
  /** Bytes of the stored updates (the data, not the file). */
  readonly updateBytes: number
  /** Size of the SQLite file. */
  readonly fileBytes: number
}

const CHARS_PER_CLIENT = 50_000
const BLOCK_MIN = 200
const BLOCK_MAX = 4_000
/** Small edits per pasted character: about the automerge-paper trace's density of items. */
const EDITS_PER_CHAR = 0.02
const APPEND_BATCH = 5_000

/**
 * The fixture of `size`, from the cache or built (printing progress) when missing.
 *
 * @example const fixture = await openFixture({ length: 1_000_000, updates: 100_000 }, console.log)
 */
export async function openFixture(
  size: FixtureSize,
  progress: (message: string) => void,
): Promise<Fixture> {
  const folder = join(CACHE_DIR, `open-document-v${FIXTURE_VERSION}-${size.length}-${size.updates}`)
  if (!existsSync(join(folder, 'meta.json'))) await buildFixture(size, folder, progress)
  const meta = JSON.parse(readFileSync(join(folder, 'meta.json'), 'utf8')) as {
    updateBytes: number
  }
  const file = join(folder, FIXTURE_DB)
  return {
    ...size,
    folder,
    file,
    text: readFileSync(join(folder, 'text.txt'), 'utf8'),
    updateBytes: meta.updateBytes,
    fileBytes: statSync(file).size,
  }
}

/** Copies the fixture's SQLite file into `folder` (created), for a server to open and change. */
export function copyFixture(fixture: Fixture, folder: string): string {
  mkdirSync(folder, { recursive: true })
  const file = join(folder, FIXTURE_DB)
  copyFileSync(fixture.file, file)
  return file
}

async function buildFixture(size: FixtureSize, folder: string, progress: (m: string) => void) {
  const started = performance.now()
  progress(
    `building the fixture: ${size.length.toLocaleString('en-US')} chars in ` +
      `${size.updates.toLocaleString('en-US')} stored updates (cached afterwards)...`,
  )
  const { text, updates } = editingHistory(size.length, progress)
  if (updates.length < size.updates) {
    throw new Error(`the history has ${updates.length} updates, fewer than ${size.updates}`)
  }
  progress(`  ${updates.length.toLocaleString('en-US')} edits; merging and storing...`)
  const building = `${folder}.building`
  rmSync(building, { recursive: true, force: true })
  const store = SqliteStore.open({ file: join(building, FIXTURE_DB) })
  let updateBytes = 0
  try {
    let batch: Promise<unknown>[] = []
    for (let i = 0; i < size.updates; i++) {
      const from = Math.floor((i * updates.length) / size.updates)
      const to = Math.floor(((i + 1) * updates.length) / size.updates)
      const merged = to - from === 1 ? updates[from]! : Y.mergeUpdates(updates.slice(from, to))
      updateBytes += merged.length
      // Appends of one turn of the event loop are committed in one transaction.
      batch.push(store.append(FIXTURE_ROOM, merged))
      if (batch.length === APPEND_BATCH || i === size.updates - 1) {
        await Promise.all(batch)
        batch = []
        if ((i + 1) % 20_000 < APPEND_BATCH) {
          progress(`  stored ${(i + 1).toLocaleString('en-US')} updates`)
        }
      }
    }
  } finally {
    await store.close()
  }
  await verify(join(building, FIXTURE_DB), text)
  await writeFile(join(building, 'text.txt'), text)
  await writeFile(join(building, 'meta.json'), `${JSON.stringify({ ...size, updateBytes })}\n`)
  rmSync(folder, { recursive: true, force: true })
  renameSync(building, folder)
  progress(`built the fixture in ${((performance.now() - started) / 1000).toFixed(1)}s`)
}

/** Reads the stored log back and checks that it rebuilds `text`. */
async function verify(file: string, text: string) {
  const store = SqliteStore.open({ file })
  try {
    const stored = await store.load(FIXTURE_ROOM)
    const doc = new Y.Doc()
    Y.transact(doc, () => {
      for (const update of stored.updates) Y.applyUpdate(doc, update)
    })
    if (doc.getText(TEXT_NAME).toString() !== text) {
      throw new Error('the stored log does not rebuild the document')
    }
    doc.destroy()
  } finally {
    await store.close()
  }
}

/** The text of exactly `length` characters and every transaction's update that made it. */
function editingHistory(length: number, progress: (m: string) => void) {
  const quick = length < 200_000
  const trace = loadTrace('automerge-paper', { quick })
  if (trace.hasAstral) throw new Error('the growth edits assume a trace without surrogate pairs')
  const text = newYText(trace.startContent)
  const doc = text.doc!
  const updates: Uint8Array[] = []
  doc.on('update', (update: Uint8Array) => updates.push(update))
  replayOnYText(trace, text)
  const gen = prng.create(7)
  let source = trace.endContent
  while (source.length < BLOCK_MAX * 2) source += source
  let sessionStart = -CHARS_PER_CLIENT
  let reported = 0
  while (text.length < length) {
    if (text.length - sessionStart >= CHARS_PER_CLIENT) {
      let id = prng.uint32(gen, 1, 0x7fffffff)
      while (doc.store.clients.has(id)) id = prng.uint32(gen, 1, 0x7fffffff)
      doc.clientID = id
      sessionStart = text.length
    }
    const size = prng.int32(gen, BLOCK_MIN, BLOCK_MAX)
    const from = prng.int32(gen, 0, source.length - size)
    const at = prng.int32(gen, 0, text.length)
    pasteAndEdit(text, gen, source, { at, from, size, edits: Math.round(size * EDITS_PER_CHAR) })
    if (text.length - reported >= 200_000) {
      reported = text.length
      progress(`  ${text.length.toLocaleString('en-US')} / ${length.toLocaleString('en-US')} chars`)
    }
  }
  if (text.length > length) doc.transact(() => text.delete(length, text.length - length))
  return { text: text.toString(), updates }
}
