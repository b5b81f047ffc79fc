import { Range } from '@tandem/text'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextEditor } from './text-editor.js'

const rows = (count: number) => Array.from({ length: count }, (_, i) => `row ${i}`).join('\n')

describe('SelectionSet', () => {
  it('merges once and reports once at the end of a change scope', () => {
    const editor = new TextEditor({ text: rows(5) })
    const set = editor.selectionSet
    set.change(() => {
      for (let row = 1; row < 5; row++)
        set.addForBufferRange([
          [row, 0],
          [row, 3],
        ])
    })
    let reports = 0
    set.onDidChange(() => reports++)
    set.change(() => {
      for (const selection of set.getSelections()) selection.selectDown()
      // Inside the scope, selections that now overlap are all still there.
      expect(set.getSelections()).toHaveLength(5)
    })
    expect(reports).toBe(1)
    // Each grown selection overlapped the next; the first only touches the second.
    expect(editor.getSelectedBufferRanges()).toEqual([
      new Range([0, 0], [1, 0]),
      new Range([1, 0], [4, 5]),
    ])
  })

  it('lets only the outermost of nested scopes merge and report', () => {
    const editor = new TextEditor({ text: rows(3) })
    const set = editor.selectionSet
    set.addForBufferRange([
      [1, 0],
      [1, 0],
    ])
    let reports = 0
    set.onDidChange(() => reports++)
    set.change(() => {
      set.change(() =>
        set.getLastSelection().setBufferRange([
          [0, 0],
          [0, 0],
        ]),
      )
      expect(reports).toBe(0)
      expect(set.getSelections()).toHaveLength(2)
    })
    expect(reports).toBe(1)
    expect(set.getSelections()).toHaveLength(1)
  })

  it('keeps overlapping selections apart when the scope says so', () => {
    const editor = new TextEditor({ text: rows(3) })
    const set = editor.selectionSet
    set.change(
      () => {
        set.addForBufferRange([
          [0, 0],
          [0, 4],
        ])
        set.addForBufferRange([
          [0, 2],
          [0, 5],
        ])
      },
      { merge: 'none' },
    )
    expect(editor.getSelectedBufferRanges()).toEqual([
      new Range([0, 0], [0, 0]),
      new Range([0, 0], [0, 4]),
      new Range([0, 2], [0, 5]),
    ])
    set.change(undefined)
    expect(editor.getSelectedBufferRanges()).toEqual([new Range([0, 0], [0, 5])])
  })

  it('reports changes made outside any scope once, after them', async () => {
    const doc = new Y.Doc()
    const editor = new TextEditor({ doc, text: rows(3) })
    const set = editor.selectionSet
    set.change(() => {
      set.addForBufferRange([
        [1, 4],
        [1, 4],
      ])
      set.addForBufferRange([
        [2, 4],
        [2, 4],
      ])
    })
    let reports = 0
    set.onDidChange(() => reports++)
    // A peer inserts a line at the start: the carets below move; the one at the insertion
    // stays before the peer's text, as collaborative anchoring has it.
    const peer = new Y.Doc()
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc))
    peer.getText('text').insert(0, 'new\n')
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(peer, Y.encodeStateVector(doc)))
    expect(reports).toBe(0)
    await Promise.resolve()
    expect(reports).toBe(1)
    expect(editor.getCursorBufferPositions()).toEqual([
      { row: 0, column: 0 },
      { row: 2, column: 4 },
      { row: 3, column: 4 },
    ])
  })

  it('reports adding and removing selections in order, cursor first', () => {
    const editor = new TextEditor({ text: rows(3) })
    const seen: string[] = []
    editor.onDidAddCursor(() => seen.push('add cursor'))
    editor.onDidAddSelection(() => seen.push('add selection'))
    editor.onDidRemoveCursor(() => seen.push('remove cursor'))
    editor.onDidRemoveSelection(() => seen.push('remove selection'))
    editor.addCursorAtBufferPosition([1, 0])
    editor.consolidateSelections()
    expect(seen).toEqual(['add cursor', 'add selection', 'remove cursor', 'remove selection'])
  })
})
