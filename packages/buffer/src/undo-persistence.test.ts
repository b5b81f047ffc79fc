import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from './index.js'

/** A server's copy of the document: garbage collection on, as a live room keeps it. */
const serverOf = (...docs: Y.Doc[]): Y.Doc => {
  const server = new Y.Doc()
  for (const doc of docs) Y.applyUpdate(server, Y.encodeStateAsUpdate(doc))
  return server
}

/** A fresh document loaded from `source` (a page that reloaded, another device). */
const reloaded = (source: Y.Doc): Y.Doc => {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(source))
  return doc
}

const sync = (a: Y.Doc, b: Y.Doc): void => {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)))
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)))
}

describe('saved undo history', () => {
  it('undoes and redoes, after a reload, steps whose deleted text the server collected', () => {
    const first = new TextBuffer()
    first.insert([0, 0], 'hello world')
    first.delete([
      [0, 5],
      [0, 11],
    ])
    first.insert([0, 5], '!')
    expect(first.getText()).toBe('hello!')
    const saved = first.saveUndoHistory()
    expect(saved.undo).toHaveLength(3)

    const doc = reloaded(serverOf(first.doc))
    const second = new TextBuffer({ doc })
    expect(second.loadUndoHistory(saved)).toBe(3)
    expect(second.undo()).toBe(true)
    expect(second.getText()).toBe('hello')
    expect(second.undo()).toBe(true)
    expect(second.getText()).toBe('hello world')
    expect(second.undo()).toBe(true)
    expect(second.getText()).toBe('')
    expect(second.undo()).toBe(false)
    expect(second.redo()).toBe(true)
    expect(second.getText()).toBe('hello world')
    expect(second.redo()).toBe(true)
    expect(second.redo()).toBe(true)
    expect(second.getText()).toBe('hello!')
  })

  it('without the saved history, a reloaded buffer has nothing to undo', () => {
    const first = new TextBuffer()
    first.insert([0, 0], 'hello')
    const second = new TextBuffer({ doc: reloaded(serverOf(first.doc)) })
    expect(second.undo()).toBe(false)
    expect(second.getText()).toBe('hello')
  })

  it('redoes after a reload what was undone before it', () => {
    const first = new TextBuffer()
    first.insert([0, 0], 'one ')
    first.insert([0, 4], 'two')
    first.delete([
      [0, 0],
      [0, 4],
    ])
    first.undo()
    first.undo()
    expect(first.getText()).toBe('one ')
    const saved = first.saveUndoHistory()
    expect(saved.redo).toHaveLength(2)
    const second = new TextBuffer({ doc: reloaded(serverOf(first.doc)) })
    second.loadUndoHistory(saved)
    expect(second.redo()).toBe(true)
    expect(second.getText()).toBe('one two')
    expect(second.redo()).toBe(true)
    expect(second.getText()).toBe('two')
    expect(second.undo()).toBe(true)
    expect(second.undo()).toBe(true)
    expect(second.undo()).toBe(true)
    expect(second.getText()).toBe('')
  })

  it('keeps redone links: undoing typing removes the copy an earlier undo made', () => {
    const first = new TextBuffer()
    first.insert([0, 0], 'abc')
    first.delete([
      [0, 1],
      [0, 2],
    ])
    first.undo()
    expect(first.getText()).toBe('abc')
    const saved = first.saveUndoHistory()
    const second = new TextBuffer({ doc: reloaded(serverOf(first.doc)) })
    second.loadUndoHistory(saved)
    expect(second.undo()).toBe(true)
    expect(second.getText()).toBe('')
    expect(second.redo()).toBe(true)
    expect(second.getText()).toBe('abc')
  })

  it("never undoes a peer's change and undoes what remains of text a peer rewrote", () => {
    const first = new TextBuffer()
    first.insert([0, 0], 'hello world')
    const saved = first.saveUndoHistory()
    const peer = new TextBuffer({ doc: reloaded(first.doc) })
    peer.insert([0, 5], ' big')
    peer.delete([
      [0, 10],
      [0, 15],
    ])
    peer.insert([0, 10], 'there')
    expect(peer.getText()).toBe('hello big there')
    const server = serverOf(first.doc, peer.doc)
    const second = new TextBuffer({ doc: reloaded(server) })
    second.loadUndoHistory(saved)
    expect(second.undo()).toBe(true)
    expect(second.getText()).toBe(' bigthere')
    sync(second.doc, peer.doc)
    expect(peer.getText()).toBe(' bigthere')
  })

  it('brings back selections saved by a layer with a role', () => {
    const first = new TextBuffer()
    const layer = first.addMarkerLayer({ maintainHistory: true, role: 'carets' })
    layer.markPosition([0, 0])
    first.transact(() => {
      first.insert([0, 0], 'abc')
      layer.getMarkers()[0]!.setHeadPosition([0, 3])
    })
    const saved = first.saveUndoHistory()
    expect(saved.undo[0]!.before).toContain('markers:carets')
    const second = new TextBuffer({ doc: reloaded(serverOf(first.doc)) })
    const restored = second.addMarkerLayer({ maintainHistory: true, role: 'carets' })
    second.loadUndoHistory(saved)
    second.undo()
    expect(restored.getMarkers().map((m) => m.getRange().toString())).toEqual(['[(0, 0) - (0, 0)]'])
    second.redo()
    expect(restored.getMarkers().map((m) => m.getRange().toString())).toEqual(['[(0, 3) - (0, 3)]'])
  })

  it('keeps only the newest steps asked for and skips steps that do not decode', () => {
    const first = new TextBuffer()
    for (const letter of 'abcde') first.append(letter)
    const saved = first.saveUndoHistory(2)
    expect(saved.undo).toHaveLength(2)
    const second = new TextBuffer({ doc: reloaded(first.doc) })
    const garbage = { ids: new Uint8Array([7, 255, 255]), before: '{', after: null }
    expect(second.loadUndoHistory({ undo: [garbage, ...saved.undo], redo: [garbage] })).toBe(2)
    second.undo()
    second.undo()
    expect(second.undo()).toBe(false)
    expect(second.getText()).toBe('abc')
  })

  it('leaves out ids the document does not have', () => {
    const first = new TextBuffer()
    first.insert([0, 0], 'abc')
    const saved = first.saveUndoHistory()
    const other = new TextBuffer()
    other.insert([0, 0], 'xyz')
    expect(other.loadUndoHistory(saved)).toBe(1)
    other.undo()
    expect(other.getText()).toBe('xyz')
  })

  it('tells when the history changes', () => {
    const buffer = new TextBuffer()
    let changes = 0
    buffer.onDidChangeUndoHistory(() => changes++)
    buffer.insert([0, 0], 'a')
    const afterInsert = changes
    expect(afterInsert).toBeGreaterThan(0)
    buffer.undo()
    expect(changes).toBeGreaterThan(afterInsert)
  })
})
