import { describe, expect, it } from 'vitest'
import {
  type Cursor,
  type CursorPositionChangeEvent,
  type Point,
  type Range,
  type Selection,
  type SelectionRangeChangeEvent,
  subwordRegExp,
  TextEditor,
  wordRegExp,
} from './index.js'

const pt = (point: Point) => point.toArray()
const rg = (range: Range) => range.serialize()

/** The positions of a cursor event, as arrays. */
const cursorMove = (event: CursorPositionChangeEvent) => ({
  oldBuffer: pt(event.oldBufferPosition),
  oldScreen: pt(event.oldScreenPosition),
  newBuffer: pt(event.newBufferPosition),
  newScreen: pt(event.newScreenPosition),
  textChanged: event.textChanged,
})

/** The ranges of a selection event, as arrays. */
const rangeChange = (event: SelectionRangeChangeEvent) => ({
  oldBuffer: rg(event.oldBufferRange),
  oldScreen: rg(event.oldScreenRange),
  newBuffer: rg(event.newBufferRange),
  newScreen: rg(event.newScreenRange),
})

describe('Cursor.onDidChangePosition', () => {
  it('reports a direct move in buffer and screen coordinates, with textChanged false', () => {
    const editor = new TextEditor({ text: '\tab', tabLength: 4 })
    const cursor = editor.getLastCursor()
    const events: CursorPositionChangeEvent[] = []
    cursor.onDidChangePosition((event) => events.push(event))
    editor.setCursorBufferPosition([0, 1])
    expect(events.map(cursorMove)).toEqual([
      {
        oldBuffer: [0, 0],
        oldScreen: [0, 0],
        newBuffer: [0, 1],
        newScreen: [0, 4],
        textChanged: false,
      },
    ])
    expect(events[0]!.cursor).toBe(cursor)
    expect(pt(cursor.getScreenPosition())).toEqual([0, 4])
    cursor.moveRight()
    expect(events.map(cursorMove)[1]).toEqual({
      oldBuffer: [0, 1],
      oldScreen: [0, 4],
      newBuffer: [0, 2],
      newScreen: [0, 5],
      textChanged: false,
    })
  })

  it('reports a move caused by a text edit before the cursor with textChanged true', () => {
    const editor = new TextEditor({ text: 'hello' })
    editor.setCursorBufferPosition([0, 3])
    const cursor = editor.getLastCursor()
    const events: CursorPositionChangeEvent[] = []
    cursor.onDidChangePosition((event) => events.push(event))
    editor.getBuffer().insert([0, 0], 'ab')
    expect(events.map(cursorMove)).toEqual([
      {
        oldBuffer: [0, 3],
        oldScreen: [0, 3],
        newBuffer: [0, 5],
        newScreen: [0, 5],
        textChanged: true,
      },
    ])
    expect(events[0]!.cursor).toBe(cursor)
  })

  it('reports the screen positions of a text-driven move across a hard tab', () => {
    const editor = new TextEditor({ text: '\tab', tabLength: 4 })
    editor.setCursorBufferPosition([0, 1])
    const events: CursorPositionChangeEvent[] = []
    editor.getLastCursor().onDidChangePosition((event) => events.push(event))
    // 'abcd' fills the first tab stop, so the tab now reaches column 8.
    editor.getBuffer().insert([0, 0], 'abcd')
    expect(events.map(cursorMove)).toEqual([
      {
        oldBuffer: [0, 1],
        oldScreen: [0, 4],
        newBuffer: [0, 5],
        newScreen: [0, 8],
        textChanged: true,
      },
    ])
  })

  it('stays quiet, as Atom does, when an edit moves the cursor in the buffer but not on screen', () => {
    const editor = new TextEditor({ text: '\tab', tabLength: 4 })
    editor.setCursorBufferPosition([0, 1])
    const events: CursorPositionChangeEvent[] = []
    editor.getLastCursor().onDidChangePosition((event) => events.push(event))
    // 'ab' lies within the tab's first stop: the cursor is still at screen column 4.
    editor.getBuffer().insert([0, 0], 'ab')
    expect(pt(editor.getCursorBufferPosition())).toEqual([0, 3])
    expect(pt(editor.getCursorScreenPosition())).toEqual([0, 4])
    expect(events).toEqual([])
  })

  it('does not fire for an edit after the cursor', () => {
    const editor = new TextEditor({ text: 'hello' })
    editor.setCursorBufferPosition([0, 2])
    let calls = 0
    editor.getLastCursor().onDidChangePosition(() => calls++)
    editor.getBuffer().insert([0, 4], 'xyz')
    expect(calls).toBe(0)
    expect(pt(editor.getCursorBufferPosition())).toEqual([0, 2])
  })

  it('is relayed by the editor for every cursor', () => {
    const editor = new TextEditor({ text: 'one\ntwo\nthree' })
    const second = editor.addCursorAtBufferPosition([1, 1])
    const first = editor.getCursors()[0]!
    const events: CursorPositionChangeEvent[] = []
    editor.onDidChangeCursorPosition((event) => events.push(event))
    editor.moveRight()
    expect(events.map((event) => event.cursor)).toEqual([first, second])
    expect(events.map(cursorMove)).toEqual([
      {
        oldBuffer: [0, 0],
        oldScreen: [0, 0],
        newBuffer: [0, 1],
        newScreen: [0, 1],
        textChanged: false,
      },
      {
        oldBuffer: [1, 1],
        oldScreen: [1, 1],
        newBuffer: [1, 2],
        newScreen: [1, 2],
        textChanged: false,
      },
    ])
  })
})

describe('Selection.onDidChangeRange', () => {
  it('reports old and new ranges in both coordinate spaces', () => {
    const editor = new TextEditor({ text: '\tab\n\tcd', tabLength: 4 })
    const selection = editor.getLastSelection()
    const events: SelectionRangeChangeEvent[] = []
    selection.onDidChangeRange((event) => events.push(event))
    editor.setSelectedBufferRange([
      [0, 1],
      [1, 2],
    ])
    expect(events.length).toBeGreaterThan(0)
    const last = events[events.length - 1]!
    expect(rangeChange(last)).toEqual({
      oldBuffer: [
        [0, 0],
        [0, 0],
      ],
      oldScreen: [
        [0, 0],
        [0, 0],
      ],
      newBuffer: [
        [0, 1],
        [1, 2],
      ],
      newScreen: [
        [0, 4],
        [1, 5],
      ],
    })
    expect(last.selection).toBe(selection)
    expect(selection.getText()).toBe('ab\n\tc')
  })

  it('fires when a text edit moves the selection', () => {
    const editor = new TextEditor({ text: 'hello world' })
    editor.setSelectedBufferRange([
      [0, 6],
      [0, 11],
    ])
    const selection = editor.getLastSelection()
    const events: SelectionRangeChangeEvent[] = []
    selection.onDidChangeRange((event) => events.push(event))
    editor.getBuffer().insert([0, 0], '>> ')
    expect(events.map(rangeChange)).toEqual([
      {
        oldBuffer: [
          [0, 6],
          [0, 11],
        ],
        oldScreen: [
          [0, 6],
          [0, 11],
        ],
        newBuffer: [
          [0, 9],
          [0, 14],
        ],
        newScreen: [
          [0, 9],
          [0, 14],
        ],
      },
    ])
    expect(selection.getText()).toBe('world')
  })

  it('is relayed by the editor, with the cursor event for the head', () => {
    const editor = new TextEditor({ text: 'hello world' })
    const selectionEvents: SelectionRangeChangeEvent[] = []
    const cursorEvents: CursorPositionChangeEvent[] = []
    editor.onDidChangeSelectionRange((event) => selectionEvents.push(event))
    editor.onDidChangeCursorPosition((event) => cursorEvents.push(event))
    editor.selectToEndOfWord()
    const last = selectionEvents[selectionEvents.length - 1]!
    expect(last.selection).toBe(editor.getLastSelection())
    expect(rg(last.newBufferRange)).toEqual([
      [0, 0],
      [0, 5],
    ])
    expect(cursorEvents.map(cursorMove)).toEqual([
      {
        oldBuffer: [0, 0],
        oldScreen: [0, 0],
        newBuffer: [0, 5],
        newScreen: [0, 5],
        textChanged: false,
      },
    ])
    expect(cursorEvents[0]!.cursor).toBe(editor.getLastCursor())
  })

  it('reports a reversed selection as an ordered range', () => {
    const editor = new TextEditor({ text: 'hello world' })
    const events: SelectionRangeChangeEvent[] = []
    editor.onDidChangeSelectionRange((event) => events.push(event))
    editor.setSelectedBufferRange(
      [
        [0, 2],
        [0, 7],
      ],
      { reversed: true },
    )
    expect(editor.getLastSelection().isReversed()).toBe(true)
    expect(pt(editor.getCursorBufferPosition())).toEqual([0, 2])
    expect(rg(events[events.length - 1]!.newBufferRange)).toEqual([
      [0, 2],
      [0, 7],
    ])
  })
})

describe('Adding, removing and merging cursors and selections', () => {
  it('announces added cursors and selections', () => {
    const editor = new TextEditor({ text: 'one\ntwo\nthree' })
    const cursors: Cursor[] = []
    const selections: Selection[] = []
    editor.onDidAddCursor((cursor) => cursors.push(cursor))
    editor.onDidAddSelection((selection) => selections.push(selection))
    const cursor = editor.addCursorAtBufferPosition([1, 1])
    expect(cursors).toEqual([cursor])
    expect(selections).toEqual([cursor.selection])
    const selection = editor.addSelectionForBufferRange([
      [2, 0],
      [2, 3],
    ])
    expect(selections).toEqual([cursor.selection, selection])
    expect(cursors).toEqual([cursor, selection.cursor])
    expect(editor.getCursors()).toHaveLength(3)
  })

  it('announces nothing when a new cursor lands on an existing one', () => {
    const editor = new TextEditor({ text: 'one\ntwo' })
    const existing = editor.getLastCursor()
    let added = 0
    editor.onDidAddCursor(() => added++)
    const returned = editor.addCursorAtBufferPosition([0, 0])
    expect(added).toBe(0)
    expect(editor.getCursors()).toEqual([existing])
    expect(returned).toBe(existing)
  })

  it('observes existing and future cursors and selections', () => {
    const editor = new TextEditor({ text: 'one\ntwo\nthree' })
    const first = editor.getLastCursor()
    const seenCursors: Cursor[] = []
    const seenSelections: Selection[] = []
    editor.observeCursors((cursor) => seenCursors.push(cursor))
    editor.observeSelections((selection) => seenSelections.push(selection))
    expect(seenCursors).toEqual([first])
    expect(seenSelections).toEqual([first.selection])
    const second = editor.addCursorAtBufferPosition([2, 2])
    expect(seenCursors).toEqual([first, second])
    expect(seenSelections).toEqual([first.selection, second.selection])
  })

  it('merges cursors moved to the same position, destroying the later one once', () => {
    const editor = new TextEditor({ text: 'one\ntwo\nthree' })
    const first = editor.getLastCursor()
    const second = editor.addCursorAtBufferPosition([1, 1])
    const third = editor.addCursorAtBufferPosition([2, 2])
    const removedCursors: Cursor[] = []
    const removedSelections: Selection[] = []
    editor.onDidRemoveCursor((cursor) => removedCursors.push(cursor))
    editor.onDidRemoveSelection((selection) => removedSelections.push(selection))
    let secondDestroyed = 0
    let thirdDestroyed = 0
    let firstDestroyed = 0
    second.onDidDestroy(() => secondDestroyed++)
    third.onDidDestroy(() => thirdDestroyed++)
    first.onDidDestroy(() => firstDestroyed++)
    editor.setCursorBufferPosition([0, 2])
    expect(editor.getCursors()).toEqual([first])
    expect(pt(first.getBufferPosition())).toEqual([0, 2])
    expect(removedCursors).toEqual([second, third])
    expect(removedSelections.map((selection) => selection.cursor)).toEqual([second, third])
    expect([firstDestroyed, secondDestroyed, thirdDestroyed]).toEqual([0, 1, 1])
    expect(second.destroyed).toBe(true)
    expect(first.destroyed).toBe(false)
    // Moving again destroys nothing more.
    editor.setCursorBufferPosition([1, 0])
    expect([firstDestroyed, secondDestroyed, thirdDestroyed]).toEqual([0, 1, 1])
  })

  it('merges cursors that meet after a move', () => {
    const editor = new TextEditor({ text: 'abc' })
    const first = editor.getLastCursor()
    const second = editor.addCursorAtBufferPosition([0, 1])
    let destroyed = 0
    second.onDidDestroy(() => destroyed++)
    editor.moveLeft()
    expect(editor.getCursors()).toEqual([first])
    expect(pt(first.getBufferPosition())).toEqual([0, 0])
    expect(destroyed).toBe(1)
  })

  it('merges overlapping selections into their union', () => {
    const editor = new TextEditor({ text: 'abcdefghij' })
    editor.setSelectedBufferRanges([
      [
        [0, 0],
        [0, 4],
      ],
      [
        [0, 6],
        [0, 8],
      ],
    ])
    expect(editor.getSelections()).toHaveLength(2)
    let removed = 0
    editor.onDidRemoveSelection(() => removed++)
    editor.selectRight(3)
    expect(editor.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [0, 0],
        [0, 10],
      ],
    ])
    expect(removed).toBe(1)
  })
})

describe('Disposables returned by event methods', () => {
  it('stop the callback, and may be disposed twice', () => {
    const editor = new TextEditor({ text: 'hello' })
    const cursor = editor.getLastCursor()
    let calls = 0
    const subscription = cursor.onDidChangePosition(() => calls++)
    expect(typeof subscription.dispose).toBe('function')
    cursor.moveRight()
    expect(calls).toBe(1)
    subscription.dispose()
    cursor.moveRight()
    expect(calls).toBe(1)
    expect(() => subscription.dispose()).not.toThrow()
    cursor.moveRight()
    expect(calls).toBe(1)
  })

  it('work for every kind of editor event', () => {
    const editor = new TextEditor({ text: 'one\ntwo\nthree' })
    const counts = { cursorMoved: 0, rangeChanged: 0, added: 0, removed: 0, selAdded: 0 }
    const subscriptions = [
      editor.onDidChangeCursorPosition(() => counts.cursorMoved++),
      editor.onDidChangeSelectionRange(() => counts.rangeChanged++),
      editor.onDidAddCursor(() => counts.added++),
      editor.onDidRemoveCursor(() => counts.removed++),
      editor.observeSelections(() => counts.selAdded++),
      editor.getLastSelection().onDidChangeRange(() => counts.rangeChanged++),
    ]
    expect(counts.selAdded).toBe(1)
    for (const subscription of subscriptions) {
      subscription.dispose()
      subscription.dispose()
    }
    editor.addCursorAtBufferPosition([1, 1])
    editor.moveRight()
    editor.selectRight()
    editor.setCursorBufferPosition([2, 0])
    expect(counts).toEqual({ cursorMoved: 0, rangeChanged: 0, added: 0, removed: 0, selAdded: 1 })
  })

  it('disposing one subscription twice leaves another subscription of the same callback', () => {
    const editor = new TextEditor({ text: 'hello' })
    let calls = 0
    const callback = () => calls++
    const first = editor.onDidChangeCursorPosition(callback)
    editor.onDidChangeCursorPosition(callback)
    first.dispose()
    first.dispose()
    editor.moveRight()
    expect(calls).toBe(1)
  })

  it('onDidDestroy of a cursor runs once even if disposed afterwards', () => {
    const editor = new TextEditor({ text: 'abc' })
    const second = editor.addCursorAtBufferPosition([0, 2])
    let calls = 0
    const subscription = second.onDidDestroy(() => calls++)
    second.destroy()
    subscription.dispose()
    subscription.dispose()
    expect(calls).toBe(1)
    expect(editor.getCursors()).toHaveLength(1)
  })
})

describe('Cursor markers and decorations', () => {
  it('decorates a cursor marker and removes the decoration when the cursor merges away', () => {
    const editor = new TextEditor({ text: 'one\ntwo' })
    const cursor = editor.addCursorAtBufferPosition([1, 2])
    const marker = cursor.getMarker()
    expect(marker.getHeadBufferPosition().toArray()).toEqual([1, 2])
    expect(rg(marker.getBufferRange())).toEqual([
      [1, 2],
      [1, 2],
    ])
    const decoration = editor.decorateMarker(marker, { type: 'cursor', class: 'x' })
    expect(editor.getDecorations({ class: 'x' })).toEqual([decoration])
    expect(decoration.getMarker()).toBe(marker)
    expect(decoration.getProperties()).toEqual({ type: 'cursor', class: 'x' })
    expect(decoration.isType('cursor')).toBe(true)
    expect(editor.getDecorations({ type: 'cursor' })).toContain(decoration)

    let removed = 0
    editor.onDidRemoveDecoration((d) => {
      if (d === decoration) removed++
    })
    // Moving every cursor to one place merges the decorated one away.
    editor.setCursorBufferPosition([0, 0])
    expect(cursor.destroyed).toBe(true)
    expect(marker.isDestroyed()).toBe(true)
    expect(decoration.isDestroyed()).toBe(true)
    expect(editor.getDecorations({ class: 'x' })).toEqual([])
    expect(removed).toBe(1)
  })

  it('moves the decorated marker with its cursor', () => {
    const editor = new TextEditor({ text: 'hello' })
    const marker = editor.getLastCursor().getMarker()
    editor.decorateMarker(marker, { type: 'cursor', class: 'x' })
    editor.moveToEndOfLine()
    const [decoration] = editor.getDecorations({ class: 'x' })
    expect(decoration!.getMarker()!.getHeadBufferPosition().toArray()).toEqual([0, 5])
  })

  it('refuses decoration properties without a string type', () => {
    const editor = new TextEditor({ text: 'x' })
    const marker = editor.getLastCursor().getMarker()
    expect(() => editor.decorateMarker(marker, {} as never)).toThrow(TypeError)
    expect(() => editor.decorateMarker(marker, { type: 3 } as never)).toThrow(TypeError)
    expect(() => editor.decorateMarker(marker, null as never)).toThrow(TypeError)
    expect(editor.getDecorations({ class: 'x' })).toEqual([])
  })
})

describe('Bad input', () => {
  it('clips out-of-range cursor positions', () => {
    const editor = new TextEditor({ text: 'ab\ncd' })
    editor.setCursorBufferPosition([99, 99])
    expect(pt(editor.getCursorBufferPosition())).toEqual([1, 2])
    editor.setCursorBufferPosition([-5, 3])
    expect(pt(editor.getCursorBufferPosition())).toEqual([0, 0])
    editor.setCursorBufferPosition([0, 40])
    expect(pt(editor.getCursorBufferPosition())).toEqual([0, 2])
    editor.setCursorBufferPosition([1, -1])
    expect(pt(editor.getCursorBufferPosition())).toEqual([1, 0])
    editor.setCursorBufferPosition([Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY])
    expect(pt(editor.getCursorBufferPosition())).toEqual([1, 2])
  })

  it('clips out-of-range selection ranges', () => {
    const editor = new TextEditor({ text: 'ab\ncd' })
    editor.setSelectedBufferRange([
      [-1, 0],
      [7, 7],
    ])
    expect(rg(editor.getSelectedBufferRange())).toEqual([
      [0, 0],
      [1, 2],
    ])
    expect(editor.getSelectedText()).toBe('ab\ncd')
  })

  it('throws a TypeError naming the argument for NaN or non-number coordinates', () => {
    const editor = new TextEditor({ text: 'ab\ncd' })
    editor.setCursorBufferPosition([1, 1])
    expect(() => editor.setCursorBufferPosition([Number.NaN, 0])).toThrow(TypeError)
    expect(() => editor.setCursorBufferPosition([Number.NaN, 0])).toThrow(/row/)
    expect(() => editor.setCursorBufferPosition(['x', 0] as never)).toThrow(TypeError)
    expect(() => editor.setCursorBufferPosition(['x', 0] as never)).toThrow(/row.*"x"/)
    expect(() => editor.setCursorBufferPosition([0, Number.NaN])).toThrow(/column/)
    expect(() =>
      editor.setSelectedBufferRange([
        [0, Number.NaN],
        [0, 1],
      ]),
    ).toThrow(TypeError)
    expect(() =>
      editor.setSelectedBufferRange([
        [0, Number.NaN],
        [0, 1],
      ]),
    ).toThrow(/column/)
    expect(() => new TextEditor({ tabLength: Number.NaN })).toThrow(TypeError)
    expect(() => new TextEditor({ tabLength: Number.NaN })).toThrow(/tabLength/)
    expect(() => new TextEditor({ tabLength: '4' as never })).toThrow(/tabLength/)
    expect(() => editor.setTabLength(Number.NaN)).toThrow(/tabLength/)
    // Nothing moved.
    expect(pt(editor.getCursorBufferPosition())).toEqual([1, 1])
    expect(editor.getCursors()).toHaveLength(1)
  })

  it('refuses an empty list of ranges', () => {
    const editor = new TextEditor({ text: 'ab\ncd' })
    editor.setCursorBufferPosition([1, 1])
    expect(() => editor.setSelectedBufferRanges([])).toThrow(Error)
    expect(() => editor.setSelectedScreenRanges([])).toThrow(Error)
    expect(editor.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [1, 1],
        [1, 1],
      ],
    ])
  })
})

describe('Words and paragraphs', () => {
  it('uses a custom nonWordCharacters option for word motion', () => {
    const editor = new TextEditor({ text: 'foo-bar baz_qux', nonWordCharacters: '_' })
    expect(editor.getNonWordCharacters()).toBe('_')
    const cursor = editor.getLastCursor()
    cursor.moveToEndOfWord()
    expect(pt(cursor.getBufferPosition())).toEqual([0, 7])
    cursor.moveToEndOfWord()
    expect(pt(cursor.getBufferPosition())).toEqual([0, 11])
    cursor.moveToEndOfWord()
    expect(pt(cursor.getBufferPosition())).toEqual([0, 12])
    cursor.moveToBeginningOfWord()
    expect(pt(cursor.getBufferPosition())).toEqual([0, 11])
    editor.setCursorBufferPosition([0, 5])
    expect(rg(cursor.getCurrentWordBufferRange())).toEqual([
      [0, 0],
      [0, 7],
    ])
    editor.selectWordsContainingCursors()
    expect(editor.getSelectedText()).toBe('foo-bar')
  })

  it('splits at the default non-word characters without the option', () => {
    const editor = new TextEditor({ text: 'foo-bar baz_qux' })
    const cursor = editor.getLastCursor()
    cursor.moveToEndOfWord()
    expect(pt(cursor.getBufferPosition())).toEqual([0, 3])
    editor.setCursorBufferPosition([0, 9])
    expect(rg(cursor.getCurrentWordBufferRange())).toEqual([
      [0, 8],
      [0, 15],
    ])
  })

  it('builds wordRegExp and subwordRegExp from the non-word characters', () => {
    const editor = new TextEditor({ text: 'x', nonWordCharacters: '-_' })
    const cursor = editor.getLastCursor()
    expect(cursor.wordRegExp().source).toBe('^[\t ]*$|[^\\s\\-_]+|[\\-_]+')
    expect(cursor.wordRegExp({ includeNonWordCharacters: false }).source).toBe(
      '^[\t ]*$|[^\\s\\-_]+',
    )
    expect(cursor.wordRegExp().flags).toBe('g')
    expect(cursor.wordRegExp().source).toBe(wordRegExp('-_').source)

    const lower = 'a-z\\u00DF-\\u00F6\\u00F8-\\u00FF'
    const upper = 'A-Z\\u00C0-\\u00D6\\u00D8-\\u00DE'
    const common = ['^[\t ]+', '[\t ]+$', `[${upper}]+(?![${lower}])`, '\\d+']
    expect(cursor.subwordRegExp().source).toBe(
      [...common, `_*[${upper}]?[${lower}]+`, '\\s*[\\-_]+', '_+'].join('|'),
    )
    expect(cursor.subwordRegExp({ backwards: true }).source).toBe(
      [...common, `[${upper}]?[${lower}]+_*`, '[\\-_]+\\s*', '_+'].join('|'),
    )
    expect(cursor.subwordRegExp().source).toBe(subwordRegExp('-_').source)
    expect('fooBarBAZ42'.match(cursor.subwordRegExp())).toEqual(['foo', 'Bar', 'BAZ', '42'])
  })

  it('escapes regular-expression characters in the non-word characters', () => {
    const regex = wordRegExp('.]^')
    expect(regex.source).toBe('^[\t ]*$|[^\\s\\.\\]\\^]+|[\\.\\]\\^]+')
    expect('a.b]c^^d'.match(regex)).toEqual(['a', '.', 'b', ']', 'c', '^^', 'd'])
  })

  it('finds the paragraph around the cursor, and none on a blank row', () => {
    const editor = new TextEditor({ text: 'one\ntwo\n\nthree\n  \nfour' })
    editor.setCursorBufferPosition([1, 1])
    expect(rg(editor.getCurrentParagraphBufferRange()!)).toEqual([
      [0, 0],
      [1, 3],
    ])
    editor.setCursorBufferPosition([2, 0])
    expect(editor.getCurrentParagraphBufferRange()).toBeUndefined()
    editor.setCursorBufferPosition([4, 1])
    expect(editor.getCurrentParagraphBufferRange()).toBeUndefined()
    editor.setCursorBufferPosition([3, 2])
    expect(rg(editor.getLastCursor().getCurrentParagraphBufferRange()!)).toEqual([
      [3, 0],
      [3, 5],
    ])
  })
})

describe('Folds', () => {
  const text = 'zero\none\ntwo\nthree'

  it('foldBufferRowRange hides the rows after the first', () => {
    const editor = new TextEditor({ text })
    expect(editor.getScreenLineCount()).toBe(4)
    editor.foldBufferRowRange(1, 2)
    expect(editor.getScreenLineCount()).toBe(3)
    expect(editor.isFoldedAtBufferRow(1)).toBe(true)
    expect(editor.isFoldedAtBufferRow(2)).toBe(true)
    expect(editor.isFoldedAtBufferRow(3)).toBe(false)
    expect(editor.getFoldedBufferRanges().map(rg)).toEqual([
      [
        [1, 3],
        [2, 3],
      ],
    ])
    expect(editor.bufferRowForScreenRow(2)).toBe(3)
    expect(pt(editor.screenPositionForBufferPosition([3, 1]))).toEqual([2, 1])
  })

  it('unfolds when a selection end lands strictly inside a fold', () => {
    const editor = new TextEditor({ text })
    editor.foldBufferRowRange(1, 2)
    editor.setSelectedBufferRange([
      [0, 0],
      [2, 1],
    ])
    expect(editor.getFoldedBufferRanges()).toEqual([])
    expect(editor.getScreenLineCount()).toBe(4)
    expect(rg(editor.getSelectedBufferRange())).toEqual([
      [0, 0],
      [2, 1],
    ])
  })

  it('keeps the fold with preserveFolds', () => {
    const editor = new TextEditor({ text })
    editor.foldBufferRowRange(1, 2)
    editor.setSelectedBufferRange(
      [
        [0, 0],
        [2, 1],
      ],
      { preserveFolds: true },
    )
    expect(editor.getFoldedBufferRanges().map(rg)).toEqual([
      [
        [1, 3],
        [2, 3],
      ],
    ])
    expect(editor.getScreenLineCount()).toBe(3)
    expect(rg(editor.getSelectedBufferRange())).toEqual([
      [0, 0],
      [2, 1],
    ])
  })

  it('keeps the fold when the selection only touches its ends', () => {
    const editor = new TextEditor({ text })
    editor.foldBufferRowRange(1, 2)
    editor.setSelectedBufferRange([
      [0, 0],
      [1, 3],
    ])
    expect(editor.getFoldedBufferRanges()).toHaveLength(1)
    editor.setSelectedBufferRange([
      [2, 3],
      [3, 2],
    ])
    expect(editor.getFoldedBufferRanges()).toHaveLength(1)
    expect(editor.getScreenLineCount()).toBe(3)
  })
})
