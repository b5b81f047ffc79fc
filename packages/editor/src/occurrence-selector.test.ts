import { describe, expect, it } from 'vitest'
import { OccurrenceSelector, type Range, TextEditor } from './index.js'

const selected = (editor: TextEditor) =>
  editor.getSelectedBufferRanges().map((range: Range) => range.serialize())

const TEXT = ['let', 'delete', 'letter', 'const let', 'lettuce', 'x = let + 1'].join('\n')

const setUp = (text = TEXT) => {
  const editor = new TextEditor({ text })
  return { editor, occurrences: new OccurrenceSelector(editor) }
}

describe('OccurrenceSelector.selectNext', () => {
  it('selects the word under the cursor first', () => {
    const { editor, occurrences } = setUp()
    editor.setCursorBufferPosition([1, 3])
    occurrences.selectNext()
    expect(selected(editor)).toEqual([
      [
        [1, 0],
        [1, 6],
      ],
    ])
  })

  it('then adds whole-word occurrences only, wrapping, and stops when all are selected', () => {
    const { editor, occurrences } = setUp()
    editor.setCursorBufferPosition([3, 7])
    occurrences.selectNext()
    occurrences.selectNext()
    occurrences.selectNext()
    expect(selected(editor)).toEqual([
      [
        [3, 6],
        [3, 9],
      ],
      [
        [5, 4],
        [5, 7],
      ],
      [
        [0, 0],
        [0, 3],
      ],
    ])
    occurrences.selectNext()
    expect(editor.getSelections()).toHaveLength(3)
  })

  it('finds any occurrence of a selection it did not make', () => {
    const { editor, occurrences } = setUp()
    editor.setSelectedBufferRange([
      [0, 0],
      [0, 3],
    ])
    occurrences.selectNext()
    occurrences.selectNext()
    expect(selected(editor)).toEqual([
      [
        [0, 0],
        [0, 3],
      ],
      [
        [1, 2],
        [1, 5],
      ],
      [
        [2, 0],
        [2, 3],
      ],
    ])
  })

  it('matches case as written and keeps the orientation of the selection', () => {
    const { editor, occurrences } = setUp('ab AB ab')
    editor.setSelectedBufferRange(
      [
        [0, 0],
        [0, 2],
      ],
      { reversed: true },
    )
    occurrences.selectNext()
    expect(selected(editor)).toEqual([
      [
        [0, 0],
        [0, 2],
      ],
      [
        [0, 6],
        [0, 8],
      ],
    ])
    expect(editor.getSelections().every((selection) => selection.isReversed())).toBe(true)
  })

  it('forgets whole words once that selection is changed', () => {
    const { editor, occurrences } = setUp('Test reallyTest Test')
    occurrences.selectNext()
    occurrences.selectNext()
    expect(selected(editor)).toEqual([
      [
        [0, 0],
        [0, 4],
      ],
      [
        [0, 16],
        [0, 20],
      ],
    ])
    editor.setSelectedBufferRange([
      [0, 0],
      [0, 3],
    ])
    editor.setSelectedBufferRange([
      [0, 0],
      [0, 4],
    ])
    occurrences.selectNext()
    expect(selected(editor)[1]).toEqual([
      [0, 11],
      [0, 15],
    ])
  })
})

describe('OccurrenceSelector.skipCurrent', () => {
  it('moves a single selection to the next occurrence', () => {
    const { editor, occurrences } = setUp()
    editor.setCursorBufferPosition([3, 6])
    occurrences.selectNext()
    occurrences.skipCurrent()
    expect(selected(editor)).toEqual([
      [
        [5, 4],
        [5, 7],
      ],
    ])
  })

  it('drops the last selection and adds the one after it, not wrapping past the first', () => {
    const { editor, occurrences } = setUp()
    occurrences.selectNext()
    occurrences.selectNext()
    occurrences.skipCurrent()
    expect(selected(editor)).toEqual([
      [
        [0, 0],
        [0, 3],
      ],
      [
        [5, 4],
        [5, 7],
      ],
    ])
    occurrences.skipCurrent()
    expect(selected(editor)).toEqual([
      [
        [0, 0],
        [0, 3],
      ],
    ])
  })

  it('does nothing with an empty selection', () => {
    const { editor, occurrences } = setUp()
    occurrences.skipCurrent()
    expect(selected(editor)).toEqual([
      [
        [0, 0],
        [0, 0],
      ],
    ])
  })
})

describe('OccurrenceSelector.undoLast', () => {
  it('removes the last added selection, then clears the first to a caret', () => {
    const { editor, occurrences } = setUp()
    editor.setCursorBufferPosition([5, 5])
    occurrences.selectNext()
    occurrences.selectNext()
    occurrences.selectNext()
    occurrences.selectNext()
    occurrences.undoLast()
    expect(selected(editor)).toEqual([
      [
        [5, 4],
        [5, 7],
      ],
      [
        [0, 0],
        [0, 3],
      ],
    ])
    occurrences.undoLast()
    occurrences.undoLast()
    expect(selected(editor)).toEqual([
      [
        [5, 7],
        [5, 7],
      ],
    ])
  })
})

describe('OccurrenceSelector.selectAll', () => {
  it('selects every whole-word occurrence of the word under the cursor', () => {
    const { editor, occurrences } = setUp()
    editor.setCursorBufferPosition([5, 5])
    occurrences.selectAll()
    expect(selected(editor)).toEqual([
      [
        [5, 4],
        [5, 7],
      ],
      [
        [0, 0],
        [0, 3],
      ],
      [
        [3, 6],
        [3, 9],
      ],
    ])
  })

  it('selects every occurrence of a selection it did not make', () => {
    const { editor, occurrences } = setUp()
    editor.setSelectedBufferRange([
      [0, 0],
      [0, 3],
    ])
    occurrences.selectAll()
    expect(editor.getSelections()).toHaveLength(6)
  })
})
