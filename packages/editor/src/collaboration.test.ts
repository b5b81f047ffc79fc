import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import type { CursorPositionChangeEvent, Point, Range, TextEditor } from './index.js'
import { connectedEditors } from './testing/peers.js'

const pt = (point: Point) => point.toArray()
const rg = (range: Range) => range.serialize()

const texts = (editor: TextEditor) => editor.getSelections().map((s) => s.getText())

describe('Collaborative anchoring: cursors of a remote peer', () => {
  it('starts both peers with the same text', () => {
    const { a, b, docA, docB } = connectedEditors('hello\nworld')
    expect(b.getText()).toBe('hello\nworld')
    expect(docA.getText('text').toString()).toBe(docB.getText('text').toString())
    expect(pt(b.getCursorBufferPosition())).toEqual([0, 0])
    expect(a.getLineCount()).toBe(2)
  })

  it('moves a caret past text inserted before it', () => {
    const { a, b } = connectedEditors('hello world')
    b.setCursorBufferPosition([0, 5])
    a.getBuffer().insert([0, 0], 'X')
    expect(pt(b.getCursorBufferPosition())).toEqual([0, 6])
    a.getBuffer().insert([0, 2], 'abc\nde')
    expect(b.getText()).toBe('Xhabc\ndeello world')
    expect(b.getCursorBufferPositions().map(pt)).toEqual([[1, 6]])
  })

  it('keeps a caret before text inserted exactly at it', () => {
    const { a, b } = connectedEditors('hello world')
    b.setCursorBufferPosition([0, 5])
    a.getBuffer().insert([0, 5], 'YY')
    expect(b.getText()).toBe('helloYY world')
    expect(b.getCursorBufferPositions().map(pt)).toEqual([[0, 5]])
    a.getBuffer().insert([0, 5], 'a\nb')
    expect(b.getCursorBufferPositions().map(pt)).toEqual([[0, 5]])
    expect(b.lineTextForBufferRow(0)).toBe('helloa')
  })

  it('keeps a caret before a word a peer types at it letter by letter', () => {
    const { a, b } = connectedEditors('one  two')
    b.setCursorBufferPosition([0, 4])
    let column = 4
    for (const letter of 'three') a.getBuffer().insert([0, column++], letter)
    expect(b.getText()).toBe('one three two')
    expect(pt(b.getCursorBufferPosition())).toEqual([0, 4])
  })

  it('leaves a caret alone for text inserted after it', () => {
    const { a, b } = connectedEditors('hello world')
    b.setCursorBufferPosition([0, 5])
    a.getBuffer().insert([0, 6], 'big ')
    a.getBuffer().insert([0, 11], '\n')
    expect(b.getCursorBufferPositions().map(pt)).toEqual([[0, 5]])
  })

  it('collapses a caret inside a deleted range to the deletion point', () => {
    const { a, b } = connectedEditors('0123456789\nabc')
    b.setCursorBufferPosition([0, 5])
    a.getBuffer().delete([
      [0, 2],
      [0, 8],
    ])
    expect(b.getCursorBufferPositions().map(pt)).toEqual([[0, 2]])
    a.getBuffer().delete([
      [0, 1],
      [1, 1],
    ])
    expect(b.getText()).toBe('0bc')
    expect(b.getCursorBufferPositions().map(pt)).toEqual([[0, 1]])
  })

  it('moves a caret back for a deletion before it and keeps it for one after it', () => {
    const { a, b } = connectedEditors('ab\ncd\nef')
    b.setCursorBufferPosition([2, 1])
    a.getBuffer().delete([
      [0, 1],
      [1, 1],
    ])
    expect(b.getCursorBufferPositions().map(pt)).toEqual([[1, 1]])
    a.getBuffer().delete([
      [1, 1],
      [1, 2],
    ])
    expect(b.getText()).toBe('ad\ne')
    expect(b.getCursorBufferPositions().map(pt)).toEqual([[1, 1]])
  })

  it('reports a remote move with textChanged true', () => {
    const { a, b } = connectedEditors('hello')
    b.setCursorBufferPosition([0, 3])
    const events: CursorPositionChangeEvent[] = []
    b.getLastCursor().onDidChangePosition((event) => events.push(event))
    a.getBuffer().insert([0, 0], '>>')
    expect(events).toHaveLength(1)
    expect(pt(events[0]!.oldBufferPosition)).toEqual([0, 3])
    expect(pt(events[0]!.newBufferPosition)).toEqual([0, 5])
    expect(events[0]!.textChanged).toBe(true)
    expect(events[0]!.cursor).toBe(b.getLastCursor())
  })

  it('keeps each of several carets on its text', () => {
    const { a, b } = connectedEditors('alpha beta gamma')
    b.setCursorBufferPosition([0, 0])
    b.addCursorAtBufferPosition([0, 6])
    b.addCursorAtBufferPosition([0, 11])
    a.getBuffer().insert([0, 6], 'X')
    a.getBuffer().insert([0, 0], 'Y')
    a.getBuffer().insert([0, 13], 'Z')
    expect(b.getText()).toBe('Yalpha Xbeta Zgamma')
    expect(b.getCursorBufferPositions().map(pt)).toEqual([
      [0, 0],
      [0, 7],
      [0, 13],
    ])
  })
})

describe('Collaborative anchoring: selections of a remote peer', () => {
  it('does not grow a selection from insertions at its start or end', () => {
    const { a, b } = connectedEditors('hello world')
    b.setSelectedBufferRange([
      [0, 6],
      [0, 11],
    ])
    a.getBuffer().insert([0, 6], '<')
    expect(b.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [0, 7],
        [0, 12],
      ],
    ])
    a.getBuffer().insert([0, 12], '>')
    expect(b.getText()).toBe('hello <world>')
    expect(b.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [0, 7],
        [0, 12],
      ],
    ])
    expect(texts(b)).toEqual(['world'])
  })

  it('does not grow a multi-line selection from multi-line insertions at its edges', () => {
    const { a, b } = connectedEditors('one\ntwo\nthree')
    b.setSelectedBufferRange([
      [0, 2],
      [2, 2],
    ])
    const selected = b.getSelectedText()
    expect(selected).toBe('e\ntwo\nth')
    a.getBuffer().insert([0, 2], 'X\nY')
    a.getBuffer().insert([3, 2], 'P\nQ')
    expect(texts(b)).toEqual([selected])
    expect(b.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [1, 1],
        [3, 2],
      ],
    ])
  })

  it('keeps a reversed selection reversed, on its text', () => {
    const { a, b } = connectedEditors('hello world')
    b.setSelectedBufferRange(
      [
        [0, 0],
        [0, 5],
      ],
      { reversed: true },
    )
    a.getBuffer().insert([0, 0], '--')
    a.getBuffer().insert([0, 7], '--')
    expect(texts(b)).toEqual(['hello'])
    expect(b.getLastSelection().isReversed()).toBe(true)
    expect(pt(b.getCursorBufferPosition())).toEqual([0, 2])
  })

  it('grows a selection from insertions inside it', () => {
    const { a, b } = connectedEditors('hello world')
    b.setSelectedBufferRange([
      [0, 6],
      [0, 11],
    ])
    a.getBuffer().insert([0, 8], 'ZZ\n')
    expect(texts(b)).toEqual(['woZZ\nrld'])
    expect(b.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [0, 6],
        [1, 3],
      ],
    ])
  })

  it('shrinks a selection for deletions inside or across its edges', () => {
    const { a, b } = connectedEditors('0123456789')
    b.setSelectedBufferRange([
      [0, 3],
      [0, 8],
    ])
    a.getBuffer().delete([
      [0, 5],
      [0, 6],
    ])
    expect(texts(b)).toEqual(['3467'])
    a.getBuffer().delete([
      [0, 1],
      [0, 4],
    ])
    expect(b.getText()).toBe('046789')
    expect(texts(b)).toEqual(['467'])
    expect(b.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [0, 1],
        [0, 4],
      ],
    ])
    a.getBuffer().delete([
      [0, 2],
      [0, 5],
    ])
    expect(b.getText()).toBe('049')
    expect(texts(b)).toEqual(['4'])
  })

  it('collapses a selection inside a deleted range to the deletion point', () => {
    const { a, b } = connectedEditors('0123456789')
    b.setSelectedBufferRange([
      [0, 3],
      [0, 6],
    ])
    a.getBuffer().delete([
      [0, 1],
      [0, 9],
    ])
    expect(b.getText()).toBe('09')
    expect(b.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [0, 1],
        [0, 1],
      ],
    ])
    expect(b.getLastSelection().isEmpty()).toBe(true)
    // Now an empty selection: a caret, which stays before text inserted at it.
    a.getBuffer().insert([0, 1], 'new')
    expect(b.getCursorBufferPositions().map(pt)).toEqual([[0, 1]])
  })

  it('does not grow a selection at its end after a deletion moved the end', () => {
    const { a, b } = connectedEditors('0123456789')
    b.setSelectedBufferRange([
      [0, 2],
      [0, 6],
    ])
    a.getBuffer().delete([
      [0, 4],
      [0, 8],
    ])
    expect(texts(b)).toEqual(['23'])
    a.getBuffer().insert([0, 4], 'XY')
    expect(b.getText()).toBe('0123XY89')
    expect(texts(b)).toEqual(['23'])
  })

  it('does not grow a selection at its start after a deletion moved the start', () => {
    const { a, b } = connectedEditors('0123456789')
    b.setSelectedBufferRange([
      [0, 4],
      [0, 8],
    ])
    a.getBuffer().delete([
      [0, 2],
      [0, 6],
    ])
    expect(texts(b)).toEqual(['67'])
    a.getBuffer().insert([0, 2], 'XY')
    expect(b.getText()).toBe('01XY6789')
    // The selection's start edge is (0, 2): text inserted there stays outside it.
    expect(b.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [0, 4],
        [0, 6],
      ],
    ])
    expect(texts(b)).toEqual(['67'])
  })

  it('keeps a caret before text inserted at it after a deletion moved it', () => {
    const { a, b } = connectedEditors('0123456789')
    b.setCursorBufferPosition([0, 5])
    a.getBuffer().delete([
      [0, 3],
      [0, 7],
    ])
    a.getBuffer().insert([0, 3], 'XY')
    expect(b.getText()).toBe('012XY789')
    expect(b.getCursorBufferPositions().map(pt)).toEqual([[0, 3]])
  })

  it('merges selections that a remote deletion makes overlap', () => {
    const { a, b } = connectedEditors('aaaa bbbb cccc')
    b.setSelectedBufferRanges([
      [
        [0, 0],
        [0, 2],
      ],
      [
        [0, 5],
        [0, 7],
      ],
      [
        [0, 12],
        [0, 12],
      ],
    ])
    // Deleting 'aa bbbb cc' leaves the first selection collapsed at (0, 2), touching the
    // second one, which collapses there too; the caret follows to the same place.
    a.getBuffer().delete([
      [0, 2],
      [0, 12],
    ])
    expect(b.getText()).toBe('aacc')
    expect(b.getSelectedBufferRanges().map(rg)).toEqual([
      [
        [0, 0],
        [0, 2],
      ],
    ])
    expect(b.getCursors()).toHaveLength(1)
  })
})

describe('Local typing next to a remote peer', () => {
  it('moves the caret of B past what B types, while the caret of A stays before it', () => {
    const { a, b, docA, docB } = connectedEditors('hello world')
    a.setCursorBufferPosition([0, 5])
    b.setCursorBufferPosition([0, 5])
    b.getBuffer().insert([0, 5], ',')
    expect(pt(b.getCursorBufferPosition())).toEqual([0, 6])
    expect(pt(a.getCursorBufferPosition())).toEqual([0, 5])
    expect(docA.getText('text').toString()).toBe('hello, world')
    expect(docA.getText('text').toString()).toBe(docB.getText('text').toString())
    expect(a.getText()).toBe(b.getText())
  })

  it('grows the selection of B from what B inserts at its edges (Atom rules)', () => {
    const { a, b } = connectedEditors('hello world')
    b.setSelectedBufferRange([
      [0, 6],
      [0, 11],
    ])
    a.setSelectedBufferRange([
      [0, 6],
      [0, 11],
    ])
    b.getBuffer().insert([0, 11], '!')
    b.getBuffer().insert([0, 6], '¡')
    expect(texts(b)).toEqual(['¡world!'])
    // For A the same insertions were remote: its selection stayed on 'world'.
    expect(texts(a)).toEqual(['world'])
    expect(a.getText()).toBe('hello ¡world!')
  })

  it('moves every cursor of B as B types at all of them', () => {
    const { a, b, docA, docB } = connectedEditors('ab\ncd\nef')
    b.setCursorBufferPosition([0, 1])
    b.addCursorAtBufferPosition([1, 1])
    b.addCursorAtBufferPosition([2, 2])
    b.getBuffer().transact(() => {
      for (const cursor of b.getCursors()) b.getBuffer().insert(cursor.getBufferPosition(), '#')
    })
    expect(b.getText()).toBe('a#b\nc#d\nef#')
    expect(b.getCursorBufferPositions().map(pt)).toEqual([
      [0, 2],
      [1, 2],
      [2, 3],
    ])
    expect(a.getText()).toBe(b.getText())
    expect(docA.getText('text').toString()).toBe(docB.getText('text').toString())
  })

  it('converges while both type, each caret following local rules for its own typing and remote rules for the other', () => {
    const { a, b, docA, docB } = connectedEditors('The quick brown fox\njumps over\nthe lazy dog')
    const random = new Random(7)
    const peers = [
      { editor: a, caret: 0 },
      { editor: b, caret: 0 },
    ]
    const offsetOf = (editor: TextEditor) =>
      editor.getBuffer().characterIndexForPosition(editor.getCursorBufferPosition())
    for (let step = 0; step < 60; step++) {
      const typist = random.pick(peers)
      const buffer = typist.editor.getBuffer()
      if (random.chance(0.4)) {
        typist.caret = random.int(0, buffer.getLength())
        typist.editor.setCursorBufferPosition(buffer.positionForCharacterIndex(typist.caret))
      }
      const at = typist.caret
      const text = random.string(random.int(1, 3), ['x', 'y', ' ', '\n'])
      buffer.insert(buffer.positionForCharacterIndex(at), text)
      for (const peer of peers) {
        // The typist's caret moves past its own text; the other's stays before text typed at it.
        if (peer === typist || at < peer.caret) peer.caret += text.length
      }
      expect(docA.getText('text').toString()).toBe(docB.getText('text').toString())
      expect(peers.map((peer) => offsetOf(peer.editor))).toEqual(peers.map((peer) => peer.caret))
    }
    expect(a.getText()).toBe(b.getText())
  })
})

/** A selection as offsets into the text. */
interface Span {
  start: number
  end: number
}

/** Where a remote insertion of `length` characters at `at` moves a span (anchoring rules). */
const spanAfterInsertion = (span: Span, at: number, length: number): Span => {
  if (span.start === span.end) {
    // A caret stays before text inserted exactly at it.
    const caret = at < span.start ? span.start + length : span.start
    return { start: caret, end: caret }
  }
  // Text inserted at either edge of a non-empty selection stays outside it.
  return {
    start: at <= span.start ? span.start + length : span.start,
    end: at < span.end ? span.end + length : span.end,
  }
}

/** Where a remote deletion of [from, to) moves a span: what it contained collapses to `from`. */
const spanAfterDeletion = (span: Span, from: number, to: number): Span => {
  const move = (offset: number) =>
    offset <= from ? offset : offset >= to ? offset - (to - from) : from
  return { start: move(span.start), end: move(span.end) }
}

/** The editor's merge: in buffer order, overlapping (or, with an empty one, touching) unite. */
const mergeSpans = (spans: readonly Span[]): Span[] => {
  const sorted = [...spans].sort((x, y) => x.start - y.start || y.end - x.end)
  const merged: Span[] = []
  for (const span of sorted) {
    const previous = merged[merged.length - 1]
    const meets =
      previous !== undefined &&
      (previous.start === previous.end || span.start === span.end
        ? span.start <= previous.end
        : span.start < previous.end)
    if (meets) previous.end = Math.max(previous.end, span.end)
    else merged.push({ ...span })
  }
  return merged
}

const PIECES = ['a', 'b', 'c', 'd', ' ', '.', '\n']

describe('Selections of B stay on their text through random edits by A', () => {
  for (const seed of seeds(3)) {
    it(`200 random insertions and deletions by A (seed ${seed})`, () => {
      const random = new Random(seed)
      let text = random.string(120, PIECES)
      const { a, b } = connectedEditors(text)
      const bufferA = a.getBuffer()
      const bufferB = b.getBuffer()
      let model: Span[] = []

      /** B's selections as sorted spans, each with its text. */
      const observed = () =>
        b
          .getSelections()
          .map((selection) => {
            const range = selection.getBufferRange()
            const start = bufferB.characterIndexForPosition(range.start)
            const end = bufferB.characterIndexForPosition(range.end)
            return { start, end, text: selection.getText() }
          })
          .sort((x, y) => x.start - y.start || y.end - x.end)
      const expected = () =>
        model.map(({ start, end }) => ({ start, end, text: text.slice(start, end) }))

      /** B selects a random range that keeps clear of its other selections. */
      const addSelection = () => {
        for (let attempt = 0; attempt < 20; attempt++) {
          const start = random.int(0, text.length)
          const end = Math.min(text.length, start + (random.chance(0.3) ? 0 : random.int(1, 12)))
          if (model.some((span) => start <= span.end + 1 && span.start <= end + 1)) continue
          const range = [
            bufferB.positionForCharacterIndex(start),
            bufferB.positionForCharacterIndex(end),
          ] as const
          b.addSelectionForBufferRange(range)
          model = mergeSpans([...model, { start, end }])
          return
        }
      }

      /** An offset, often one of the edges of B's selections. */
      const pickOffset = () => {
        if (model.length > 0 && random.chance(0.4)) {
          const span = random.pick(model)
          return random.chance(0.5) ? span.start : span.end
        }
        return random.int(0, text.length)
      }

      const first = random.int(0, text.length - 10)
      b.setSelectedBufferRange([
        bufferB.positionForCharacterIndex(first),
        bufferB.positionForCharacterIndex(first + 6),
      ])
      model = [{ start: first, end: first + 6 }]
      for (let i = 0; i < 4; i++) addSelection()
      expect(observed()).toEqual(expected())

      for (let step = 0; step < 200; step++) {
        if (model.length < 3) addSelection()
        if (text.length < 40 || random.chance(0.55)) {
          const at = pickOffset()
          const inserted = random.string(random.int(1, 6), PIECES)
          bufferA.insert(bufferA.positionForCharacterIndex(at), inserted)
          text = text.slice(0, at) + inserted + text.slice(at)
          model = model.map((span) => spanAfterInsertion(span, at, inserted.length))
        } else {
          let from = pickOffset()
          let to = random.chance(0.5) ? pickOffset() : from + random.int(1, 10)
          if (from > to) [from, to] = [to, from]
          to = Math.min(to, text.length)
          if (from === to) continue
          bufferA.delete([
            bufferA.positionForCharacterIndex(from),
            bufferA.positionForCharacterIndex(to),
          ])
          text = text.slice(0, from) + text.slice(to)
          model = model.map((span) => spanAfterDeletion(span, from, to))
        }
        model = mergeSpans(model)
        expect(bufferB.getText()).toBe(text)
        expect(observed(), `after step ${step}`).toEqual(expected())
      }
    })
  }
})
