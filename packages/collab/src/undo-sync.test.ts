/**
 * The order of an undo history's sources when a tab opens after typing offline: the copy in
 * IndexedDB (steps the server has not had) goes to the server as soon as the socket is open,
 * and the server's answer to the request made just before (its older history) must not
 * replace it. The socket and IndexedDB are stood in for by objects that record what is sent
 * and hand back a stored copy, so the order can be fixed; the browser test of the playground
 * goes through the real ones.
 */
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { encodeUndoHistory, UndoHistoryKind } from '@tandem/protocol'
import { describe, expect, it, vi } from 'vitest'
import type { IndexeddbPersistence } from 'y-indexeddb'
import type { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'
import { UndoHistorySync } from './undo-sync.js'

/** The history of an editor that typed `online `, then (a step later) `offline`. */
const histories = () => {
  const doc = new Y.Doc()
  const editor = new TextEditor({ buffer: new TextBuffer({ doc }), undoGroupingInterval: 0 })
  editor.insertText('online ')
  const one = encodeUndoHistory(editor.getUndoHistoryState())
  editor.insertText('offline')
  const two = encodeUndoHistory(editor.getUndoHistoryState())
  return { doc, one, two }
}

describe('UndoHistorySync', () => {
  it("keeps a copy made offline over the answer to a request made before the copy's save", async () => {
    const { doc, one, two } = histories()
    const replica = new Y.Doc()
    Y.applyUpdate(replica, Y.encodeStateAsUpdate(doc))
    const editor = new TextEditor({ buffer: new TextBuffer({ doc: replica }) })
    const sent: Uint8Array[] = []
    const provider = {
      ws: { readyState: 1, send: (message: Uint8Array) => sent.push(message) },
      wsconnected: true,
      synced: true,
      on() {},
      off() {},
    } as unknown as WebsocketProvider
    let giveCopy!: () => void
    const copyRead = new Promise<void>((resolve) => {
      giveCopy = resolve
    })
    const persistence = {
      whenSynced: Promise.resolve(),
      get: async () => {
        await copyRead
        return { history: two, sent: false }
      },
      set: async () => {},
    } as unknown as IndexeddbPersistence
    const sync = new UndoHistorySync(editor, provider, persistence, 'ada')
    // The socket opens: the request goes out; then the offline copy loads and is saved.
    sync.connected()
    giveCopy()
    await vi.waitFor(() => expect(editor.getUndoHistoryState().undo).toHaveLength(2))
    expect(sent).toHaveLength(2)
    // The answer to the request comes after: the server's history from before the save.
    sync.received({ kind: UndoHistoryKind.answer, user: 'ada', history: one })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(editor.getUndoHistoryState().undo).toHaveLength(2)
    editor.undo()
    expect(editor.getText()).toBe('online ')
    sync.destroy()
  })
})
