import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextEditor } from './index.js'

/** A fresh document loaded from a server that collected what was deleted (a reload). */
const reloaded = (...sources: Y.Doc[]): Y.Doc => {
  const server = new Y.Doc()
  for (const source of sources) Y.applyUpdate(server, Y.encodeStateAsUpdate(source))
  const doc = new Y.Doc()
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(server))
  return doc
}

const ranges = (editor: TextEditor): string[] =>
  editor.getSelectedBufferRanges().map((range) => range.toString())

describe('undo history saved and restored', () => {
  it('undoes and redoes typing after a reload, with the selections before and after each step', () => {
    const first = new TextEditor({ doc: new Y.Doc() })
    first.insertText('hello world')
    first.setSelectedBufferRange([
      [0, 0],
      [0, 5],
    ])
    first.insertText('HELLO')
    first.addCursorAtBufferPosition([0, 11])
    first.insertText('!')
    expect(first.getText()).toBe('HELLO! world!')
    const saved = JSON.parse(
      JSON.stringify(first.getUndoHistoryState(), (_k, v) =>
        v instanceof Uint8Array ? { bytes: [...v] } : v,
      ),
      (_k, v) => (v !== null && Array.isArray(v.bytes) ? new Uint8Array(v.bytes) : v),
    )

    const second = new TextEditor({ doc: reloaded(first.getBuffer().doc) })
    expect(second.getText()).toBe('HELLO! world!')
    expect(second.restoreUndoHistory(saved)).toBe(3)
    second.undo()
    expect(second.getText()).toBe('HELLO world')
    expect(ranges(second)).toEqual(['[(0, 5) - (0, 5)]', '[(0, 11) - (0, 11)]'])
    second.undo()
    expect(second.getText()).toBe('hello world')
    expect(ranges(second)).toEqual(['[(0, 0) - (0, 5)]'])
    second.undo()
    expect(second.getText()).toBe('')
    second.redo()
    second.redo()
    expect(second.getText()).toBe('HELLO world')
    expect(ranges(second)).toEqual(['[(0, 5) - (0, 5)]'])
  })

  it("keeps a peer's text typed inside the step it undoes", () => {
    const first = new TextEditor({ doc: new Y.Doc() })
    first.insertText('one two')
    const saved = first.getUndoHistoryState()
    const peer = new TextEditor({ doc: reloaded(first.getBuffer().doc) })
    peer.setCursorBufferPosition([0, 3])
    peer.insertText(' and')
    const second = new TextEditor({ doc: reloaded(first.getBuffer().doc, peer.getBuffer().doc) })
    expect(second.getText()).toBe('one and two')
    second.restoreUndoHistory(saved)
    second.undo()
    expect(second.getText()).toBe(' and')
  })

  it('tells when the history changes', () => {
    const editor = new TextEditor({ doc: new Y.Doc() })
    let changes = 0
    editor.onDidChangeUndoHistory(() => changes++)
    editor.insertText('a')
    expect(changes).toBeGreaterThan(0)
  })
})
