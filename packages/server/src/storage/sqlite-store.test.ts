import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { describeDocumentStore } from '../testing/store-contract.js'
import { StorageError } from './document-store.js'
import { SqliteStore } from './sqlite-store.js'

const dir = mkdtempSync(join(tmpdir(), 'tandem-sqlite-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const file = join(dir, 'nested', 'store.sqlite')
describeDocumentStore('SqliteStore', async ({ fresh, maxSessionsPerRoom }) => {
  if (fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  return SqliteStore.open({ file, maxSessionsPerRoom })
})

describe('SqliteStore', () => {
  it('uses write-ahead logging', async () => {
    const path = join(dir, 'wal.sqlite')
    const store = SqliteStore.open({ file: path })
    await store.append('r', new Uint8Array([0, 0]))
    await store.close()
    const reader = new Database(path, { readonly: true })
    expect(reader.pragma('journal_mode', { simple: true })).toBe('wal')
    reader.close()
  })

  it('fails with a StorageError naming the file when it cannot open it', () => {
    const notADatabase = join(dir, 'text.sqlite')
    writeFileSync(notADatabase, 'this is not a database, only text long enough to be read')
    expect(() => SqliteStore.open({ file: notADatabase })).toThrow(StorageError)
    expect(() => SqliteStore.open({ file: notADatabase })).toThrow(/text\.sqlite/)
  })

  it('adds the author columns to a file made before the store kept authors', async () => {
    const path = join(dir, 'old.sqlite')
    const old = new Database(path)
    old.exec(`CREATE TABLE updates (seq INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL,
      data BLOB NOT NULL); INSERT INTO updates (room, data) VALUES ('r', x'0000')`)
    old.close()
    const store = SqliteStore.open({ file: path })
    const doc = new Y.Doc()
    doc.getText('text').insert(0, 'x')
    await store.append('r', Y.encodeStateAsUpdate(doc), { user: 'ada', time: 0, acceptedBy: 'bob' })
    expect((await store.load('r')).updates).toHaveLength(2)
    expect((await store.loadAttribution('r')).users()).toEqual(['ada'])
    expect((await store.loadAttribution('r')).usersSince(0)).toEqual(['ada', 'bob'])
    await store.close()
  })

  it('adds the program changes table to a file made before it', async () => {
    const path = join(dir, 'before-changes.sqlite')
    const before = SqliteStore.open({ file: path })
    await before.saveUndoHistory('r', 'ada', new Uint8Array([1]))
    await before.close()
    const old = new Database(path)
    old.exec('DROP TABLE program_changes')
    old.close()
    const store = SqliteStore.open({ file: path })
    await store.saveProgramChange('r', 'a', new Uint8Array([1, 2]))
    expect(await store.loadProgramChanges('r', 10)).toEqual([
      { id: 'a', change: new Uint8Array([1, 2]) },
    ])
    expect(await store.loadUndoHistory('r', 'ada')).toEqual(new Uint8Array([1]))
    await store.close()
  })

  it('refuses to work once closed', async () => {
    const store = SqliteStore.open({ file: ':memory:' })
    await store.close()
    await expect(store.load('r')).rejects.toThrow(/closed/)
  })
})
