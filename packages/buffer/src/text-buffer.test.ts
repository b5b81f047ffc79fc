import { Point, Range } from '@tandem/text'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import type { BufferChangeEvent } from './buffer-change.js'
import { TestNetwork } from './testing/network.js'
import { TextBuffer } from './text-buffer.js'

/** Lines as Atom's buffer reads them: broken at `\n`, with the `\r` of `\r\n` in the ending. */
const naiveLines = (text: string) =>
  text.split('\n').map((line, i, all) => {
    const last = i === all.length - 1
    if (!last && line.endsWith('\r')) return { text: line.slice(0, -1), ending: '\r\n' }
    return { text: line, ending: last ? '' : '\n' }
  })

const checkLines = (buffer: TextBuffer, context: string) => {
  const text = buffer.ytext.toString()
  expect(buffer.getText(), context).toBe(text)
  const lines = naiveLines(text)
  expect(buffer.getLineCount(), context).toBe(lines.length)
  let offset = 0
  for (let row = 0; row < lines.length; row++) {
    const line = lines[row]!
    expect(buffer.lineForRow(row), context).toBe(line.text)
    expect(buffer.lineEndingForRow(row), context).toBe(line.ending)
    expect(buffer.characterIndexForPosition([row, 0]), context).toBe(offset)
    offset += line.text.length + line.ending.length
  }
}

const ALPHABET = ['a', 'b', ' ', '\n', '\r\n', '\r', '\u{1F600}', 'xyz', '\t']

/** A random edit; undo and redo only outside transactions (they refuse to run inside). */
const randomEdit = (random: Random, buffer: TextBuffer, inTransaction = false) => {
  const end = buffer.getEndPosition()
  const point = () => {
    const row = random.int(0, end.row)
    return new Point(row, random.int(0, buffer.lineLengthForRow(row)!))
  }
  const roll = random.next()
  if (roll < 0.45) {
    buffer.insert(point(), random.string(random.int(0, 5), ALPHABET), {
      normalizeLineEndings: random.chance(0.5),
    })
  } else if (roll < 0.75) {
    buffer.delete(new Range(point(), point()))
  } else if (roll < 0.9) {
    buffer.setTextInRange(new Range(point(), point()), random.string(random.int(1, 3), ALPHABET))
  } else if (inTransaction) {
    buffer.insert(point(), 'a')
  } else if (roll < 0.95) {
    buffer.undo()
  } else {
    buffer.redo()
  }
}

describe('TextBuffer: reading and editing', () => {
  it('reads lines, endings and positions as Atom does', () => {
    const buffer = new TextBuffer('zero\none\r\ntwo\nthree')
    expect(buffer.getLineCount()).toBe(4)
    expect(buffer.lineForRow(1)).toBe('one')
    expect(buffer.lineEndingForRow(1)).toBe('\r\n')
    expect(buffer.lineEndingForRow(3)).toBe('')
    expect(buffer.lineEndingForRow(9)).toBeUndefined()
    expect(buffer.characterIndexForPosition([1, 3])).toBe(8)
    expect(buffer.characterIndexForPosition([2, 0])).toBe(10)
    expect(buffer.characterIndexForPosition([100, 100])).toBe(19)
    expect(buffer.positionForCharacterIndex(8).toArray()).toEqual([1, 3])
    expect(buffer.positionForCharacterIndex(9).toArray()).toEqual([1, 3])
    expect(buffer.positionForCharacterIndex(10).toArray()).toEqual([2, 0])
    expect(buffer.getEndPosition().toArray()).toEqual([3, 5])
    expect(buffer.rangeForRow(1, true).serialize()).toEqual([
      [1, 0],
      [2, 0],
    ])
    expect(buffer.rangeForRow(3, true).serialize()).toEqual([
      [3, 0],
      [3, 5],
    ])
    expect(buffer.isRowBlank(0)).toBe(false)
  })

  it('treats a lone carriage return as an ordinary character', () => {
    const buffer = new TextBuffer('a\rb')
    expect(buffer.getLineCount()).toBe(1)
    buffer.insert([0, 2], '\n', { normalizeLineEndings: false })
    expect(buffer.lineEndingForRow(0)).toBe('\r\n')
    expect(buffer.lineForRow(0)).toBe('a')
  })

  it('clips out-of-range positions as Atom clips them', () => {
    const buffer = new TextBuffer('hello\nworld')
    expect(buffer.clipPosition([-1, 3]).toArray()).toEqual([0, 0])
    expect(buffer.clipPosition([0, -4]).toArray()).toEqual([0, 0])
    expect(buffer.clipPosition([0, 99]).toArray()).toEqual([0, 5])
    expect(buffer.clipPosition([9, 0]).toArray()).toEqual([1, 5])
    expect(buffer.clipPosition([Number.POSITIVE_INFINITY, 0]).toArray()).toEqual([1, 5])
    expect(
      buffer
        .clipRange([
          [-3, 0],
          [0, 40],
        ])
        .serialize(),
    ).toEqual([
      [0, 0],
      [0, 5],
    ])
    buffer.setTextInRange(
      [
        [0, 3],
        [7, 7],
      ],
      '!',
    )
    expect(buffer.getText()).toBe('hel!')
  })

  it('throws a TypeError naming the bad argument', () => {
    expect(() => new TextBuffer('a\nb').deleteRows(Number.NaN, 1)).toThrow(/startRow/)
    const buffer = new TextBuffer('abc')
    expect(() => buffer.clipPosition([Number.NaN, 0])).toThrow(/position\.row/)
    expect(() => buffer.clipPosition({ row: 0, column: 'x' } as never)).toThrow(TypeError)
    expect(() =>
      buffer.setTextInRange(
        [
          [0, 0],
          [0, 1],
        ],
        5 as never,
      ),
    ).toThrow(/text must be a string/)
    expect(() => buffer.lineForRow(Number.NaN)).toThrow(/row/)
    expect(() => buffer.positionForCharacterIndex('1' as never)).toThrow(/offset/)
    expect(buffer.getText()).toBe('abc')
  })

  it('returns the new range and normalizes line endings to the edited line', () => {
    const buffer = new TextBuffer('one\r\ntwo')
    const range = buffer.insert([0, 3], 'a\nb\rc')
    expect(buffer.getText()).toBe('onea\r\nb\r\nc\r\ntwo')
    expect(range.serialize()).toEqual([
      [0, 3],
      [2, 1],
    ])
    const raw = buffer.insert([0, 0], 'x\ny', { normalizeLineEndings: false })
    expect(raw.serialize()).toEqual([
      [0, 0],
      [1, 1],
    ])
    expect(buffer.getText().startsWith('x\ny')).toBe(true)
  })

  it('emits one change event per transaction, with old and new ranges and texts', () => {
    const buffer = new TextBuffer('abc\ndef')
    const events: BufferChangeEvent[] = []
    buffer.onDidChange((event) => events.push(event))
    buffer.transact(() => {
      buffer.insert([1, 0], 'v')
      buffer.insert([1, 1], 'x')
      buffer.delete([
        [0, 0],
        [0, 1],
      ])
    })
    expect(events).toHaveLength(1)
    const [event] = events
    expect(event!.local).toBe(true)
    expect(
      event!.changes.map((c) => [
        c.oldRange.serialize(),
        c.newRange.serialize(),
        c.oldText,
        c.newText,
      ]),
    ).toEqual([
      [
        [
          [0, 0],
          [0, 1],
        ],
        [
          [0, 0],
          [0, 0],
        ],
        'a',
        '',
      ],
      [
        [
          [1, 0],
          [1, 0],
        ],
        [
          [1, 0],
          [1, 2],
        ],
        '',
        'vx',
      ],
    ])
  })

  it('marks changes from another peer as remote', () => {
    const a = new TextBuffer('shared')
    const b = new TextBuffer({ doc: new Y.Doc() })
    Y.applyUpdate(b.doc, Y.encodeStateAsUpdate(a.doc))
    expect(b.getText()).toBe('shared')
    const events: BufferChangeEvent[] = []
    b.onDidChange((event) => events.push(event))
    a.insert([0, 6], '!')
    Y.applyUpdate(b.doc, Y.encodeStateAsUpdate(a.doc, Y.encodeStateVector(b.doc)))
    expect(events).toHaveLength(1)
    expect(events[0]!.remote).toBe(true)
    expect(events[0]!.changes[0]!.newText).toBe('!')
  })

  it('scans forwards and backwards, stops, and replaces in one step', () => {
    const buffer = new TextBuffer('one two\nthree two')
    const found: string[] = []
    buffer.scan(/two/, ({ range }) => found.push(range.toString()))
    expect(found).toEqual(['[(0, 4) - (0, 7)]', '[(1, 6) - (1, 9)]'])
    const backwards: string[] = []
    buffer.backwardsScan(/t\w+/g, ({ matchText, stop }) => {
      backwards.push(matchText)
      if (backwards.length === 2) stop()
    })
    expect(backwards).toEqual(['two', 'three'])
    buffer.scan(/two/g, ({ replace }) => replace('2'))
    expect(buffer.getText()).toBe('one 2\nthree 2')
    buffer.undo()
    expect(buffer.getText()).toBe('one two\nthree two')
    let empties = 0
    buffer.scanInRange(
      /x*/g,
      [
        [0, 0],
        [0, 3],
      ],
      () => empties++,
    )
    expect(empties).toBe(4)
  })

  it('never splits a surrogate pair with a local edit', () => {
    const buffer = new TextBuffer('a\u{1F600}b')
    // Column 2 is between the two halves of the emoji: an insertion goes before the pair, a
    // deletion's edges move outside it.
    expect(buffer.insert([0, 2], 'X').toString()).toBe('[(0, 1) - (0, 2)]')
    expect(buffer.getText()).toBe('aX\u{1F600}b')
    buffer.delete(new Range(new Point(0, 3), new Point(0, 4)))
    expect(buffer.getText()).toBe('aXb')
    expect(buffer.ytext.toString()).toBe('aXb')
  })

  it('writes a lone surrogate in inserted text as U+FFFD, as every other peer will read it', () => {
    const docA = new Y.Doc()
    const docB = new Y.Doc()
    const a = new TextBuffer({ doc: docA })
    const b = new TextBuffer({ doc: docB })
    a.insert([0, 0], 'x\uD83Dy\uDE00z\u{1F600}')
    Y.applyUpdate(docB, Y.encodeStateAsUpdate(docA))
    expect(a.getText()).toBe('x\uFFFDy\uFFFDz\u{1F600}')
    expect(b.getText()).toBe(a.getText())
  })

  it('handles a 10 MB insert', () => {
    const buffer = new TextBuffer('start')
    const line = 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxy\n'
    const big = line.repeat(Math.ceil(10_000_000 / line.length))
    buffer.insert([0, 5], big)
    expect(buffer.getLength()).toBe(5 + big.length)
    expect(buffer.getLineCount()).toBe(big.length / line.length + 1)
    expect(buffer.lineForRow(1000)).toBe(line.slice(0, -1))
  })

  for (const seed of seeds(6)) {
    it(`keeps its lines equal to a naive split under random local and remote edits (seed ${seed})`, () => {
      const random = new Random(seed)
      const network = new TestNetwork(3, random)
      const buffers = network.docs.map((doc) => new TextBuffer({ doc }))
      for (let step = 0; step < 500; step++) {
        const context = `seed ${seed}, step ${step}`
        const p = random.int(0, 2)
        const buffer = buffers[p]!
        if (random.chance(0.6)) {
          if (random.chance(0.2)) {
            buffer.transact(() => {
              for (let k = random.int(1, 3); k > 0; k--) randomEdit(random, buffer, true)
            })
          } else {
            randomEdit(random, buffer)
          }
        } else if (random.chance(0.05)) {
          if (network.isOnline(p)) network.disconnect(p)
          else network.reconnect(p)
        } else {
          network.deliverSome(random.int(1, 6))
        }
        checkLines(buffer, context)
      }
      network.flush()
      for (const buffer of buffers) checkLines(buffer, `seed ${seed}, after flush`)
      expect(new Set(buffers.map((b) => b.getText())).size).toBe(1)
    })
  }
})

describe('TextBuffer.setTextInRanges', () => {
  for (const seed of seeds(12)) {
    it(`does what setTextInRange on each range in turn does (seed ${seed})`, () => {
      const random = new Random(seed)
      const text = random.string(random.int(5, 40), ALPHABET)
      const batch = new TextBuffer(text)
      const reference = new TextBuffer(text)
      // Sorted, apart ranges over the text as it is.
      const length = batch.getLength()
      // Cut only where a position is what it says: not inside \r\n or a surrogate pair, which
      // the buffer would move (that rule has tests of its own).
      const whole = batch.getText()
      const clean = (k: number) =>
        !(whole[k - 1] === '\r' && whole[k] === '\n') && !/[\uDC00-\uDFFF]/.test(whole[k] ?? '')
      const cuts = [
        ...new Set(Array.from({ length: random.int(2, 12) }, () => random.int(0, length))),
      ]
        .filter(clean)
        .sort((a, b) => a - b)
      const offsets: [number, number][] = []
      for (let i = 0; i + 1 < cuts.length; i += 2) {
        const start = cuts[i]!
        const end = random.chance(0.5) ? start : cuts[i + 1]!
        if (offsets.length === 0 || start > offsets[offsets.length - 1]![1])
          offsets.push([start, end])
      }
      const ranges = offsets.map(
        ([start, end]) =>
          new Range(batch.positionForCharacterIndex(start), batch.positionForCharacterIndex(end)),
      )
      const markers = [batch, reference].map((buffer) =>
        ranges.map((range) => buffer.markRange(range)),
      )
      const inserted = random.string(random.int(0, 3), ALPHABET)
      const got = batch.setTextInRanges(ranges, inserted)
      // The reference edits last first, so earlier ranges keep their places; what it inserts
      // at each (line endings adjusted to the row) is what the batch's ranges must hold.
      const insertedTexts: string[] = []
      reference.transact(() => {
        for (let i = ranges.length - 1; i >= 0; i--) {
          insertedTexts[i] = reference.getTextInRange(
            reference.setTextInRange(ranges[i]!, inserted),
          )
        }
      })
      expect(batch.getText()).toBe(reference.getText())
      expect(got.map((range) => batch.getTextInRange(range))).toEqual(insertedTexts)
      // Each new range starts where the text before it, unchanged by its own edit, ends.
      for (let i = 0; i < ranges.length; i++) {
        const startOffset = batch.characterIndexForPosition(got[i]!.start)
        const before = i === 0 ? 0 : batch.characterIndexForPosition(got[i - 1]!.end)
        const gap = offsets[i]![0] - (i === 0 ? 0 : offsets[i - 1]![1])
        expect(startOffset - before).toBe(gap)
        expect(`${markers[0]![i]!.getRange()}`).toBe(`${markers[1]![i]!.getRange()}`)
      }
      checkLines(batch, `seed ${seed}`)
      batch.undo()
      reference.undo()
      expect(batch.getText()).toBe(text)
      expect(reference.getText()).toBe(text)
    })
  }

  it('refuses ranges that overlap or are out of order, changing nothing', () => {
    const buffer = new TextBuffer('abcdef')
    expect(() =>
      buffer.setTextInRanges(
        [
          [
            [0, 2],
            [0, 4],
          ],
          [
            [0, 3],
            [0, 5],
          ],
        ],
        'x',
      ),
    ).toThrow(RangeError)
    expect(buffer.getText()).toBe('abcdef')
  })
})

describe('TextBuffer: undo', () => {
  it('undoes only its own changes and keeps a remote edit made in between', () => {
    const random = new Random(7)
    const network = new TestNetwork(2, random)
    const [a, b] = network.docs.map((doc) => new TextBuffer({ doc }))
    a!.setText('hello world')
    network.flush()
    a!.insert([0, 5], ',')
    network.flush()
    b!.insert([0, 0], '> ')
    network.flush()
    a!.insert([0, 14], '!')
    network.flush()
    expect(a!.getText()).toBe('> hello, world!')
    expect(a!.undo()).toBe(true)
    expect(a!.undo()).toBe(true)
    network.flush()
    expect(a!.getText()).toBe('> hello world')
    expect(b!.getText()).toBe('> hello world')
    expect(a!.redo()).toBe(true)
    network.flush()
    expect(b!.getText()).toBe('> hello, world')
    expect(b!.undo()).toBe(true)
    network.flush()
    expect(a!.getText()).toBe('hello, world')
  })

  it('makes a step of an edit that changes nothing, as Atom does, and undoes it alone', () => {
    const buffer = new TextBuffer('')
    buffer.insert([0, 0], 'é')
    buffer.insert([0, 1], '')
    expect(buffer.undo()).toBe(true)
    expect(buffer.getText()).toBe('é')
    expect(buffer.undo()).toBe(true)
    expect(buffer.getText()).toBe('')
    expect(buffer.redo()).toBe(true)
    expect(buffer.redo()).toBe(true)
    expect(buffer.getText()).toBe('é')
    expect(buffer.undo()).toBe(true)
    expect(buffer.getText()).toBe('é')
  })

  it('refuses undo, redo and reverting inside a transaction, changing nothing', () => {
    const buffer = new TextBuffer('abc')
    buffer.insert([0, 3], 'd')
    const checkpoint = buffer.createCheckpoint()
    for (const operation of [
      () => buffer.undo(),
      () => buffer.redo(),
      () => buffer.revertToCheckpoint(checkpoint),
    ]) {
      expect(() =>
        buffer.transact(() => {
          buffer.insert([0, 0], '>')
          operation()
        }),
      ).toThrow(/inside transact/)
      expect(buffer.getText()).toBe('abcd')
    }
    expect(buffer.undo()).toBe(true)
    expect(buffer.getText()).toBe('abc')
  })

  it('groups, checkpoints and reverts as Atom does', () => {
    const buffer = new TextBuffer('')
    buffer.insert([0, 0], 'a')
    const checkpoint = buffer.createCheckpoint()
    buffer.insert([0, 1], 'b')
    buffer.insert([0, 2], 'c')
    expect(buffer.groupChangesSinceCheckpoint(checkpoint)).toBe(true)
    buffer.undo()
    expect(buffer.getText()).toBe('a')
    buffer.redo()
    expect(buffer.getText()).toBe('abc')
    const second = buffer.createCheckpoint()
    buffer.insert([0, 3], 'd')
    buffer.insert([0, 4], 'e')
    expect(buffer.revertToCheckpoint(second)).toBe(true)
    expect(buffer.getText()).toBe('abc')
    expect(buffer.redo()).toBe(false)
    buffer.insert([0, 3], 'x')
    buffer.insert([0, 4], 'y')
    expect(buffer.groupLastChanges()).toBe(true)
    buffer.undo()
    expect(buffer.getText()).toBe('abc')
    buffer.transact(1000, () => buffer.insert([0, 3], '1'))
    buffer.transact(1000, () => buffer.insert([0, 4], '2'))
    buffer.undo()
    expect(buffer.getText()).toBe('abc')
    // A skipped step joins the step before it ('bc' here), as in Atom.
    buffer.insert([0, 3], 'z', { undo: 'skip' })
    buffer.undo()
    expect(buffer.getText()).toBe('a')
  })

  it('reverts a transaction whose function throws', () => {
    const buffer = new TextBuffer('keep')
    expect(() =>
      buffer.transact(() => {
        buffer.insert([0, 0], 'lost ')
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(buffer.getText()).toBe('keep')
    expect(buffer.redo()).toBe(false)
  })

  it('saves and restores registered state with each step', () => {
    const buffer = new TextBuffer('abc')
    let state = 'initial'
    buffer.registerUndoState({ capture: () => state, restore: (s) => (state = s) })
    buffer.transact(() => {
      buffer.insert([0, 3], 'd')
      state = 'after'
    })
    state = 'later'
    buffer.undo()
    expect(state).toBe('initial')
    buffer.redo()
    expect(state).toBe('after')
  })
  it('skips a step a peer wholly deleted, as Yjs undo does, and restores the state of the step undone', () => {
    const buffer = new TextBuffer('')
    const peer = new Y.Doc()
    buffer.doc.on('update', (update: Uint8Array) => Y.applyUpdate(peer, update))
    peer.on('update', (update: Uint8Array) => Y.applyUpdate(buffer.doc, update))
    let state = 'start'
    buffer.registerUndoState({ capture: () => state, restore: (s) => (state = s) })
    buffer.transact(() => {
      buffer.insert([0, 0], 'one ')
      state = 'after one'
    })
    buffer.transact(() => {
      buffer.append('two')
      state = 'after two'
    })
    // The peer deletes all that the second step inserted: undoing it would change nothing.
    peer.getText('text').delete(4, 3)
    expect(buffer.getText()).toBe('one ')
    expect(buffer.undo()).toBe(true)
    expect(buffer.getText()).toBe('')
    expect(state).toBe('start')
    expect(buffer.redo()).toBe(true)
    expect(buffer.getText()).toBe('one ')
    expect(state).toBe('after one')
    expect(buffer.redo()).toBe(false)
  })
})

describe('TextBuffer.positionForRelativePosition', () => {
  it('resolves relative positions made anywhere, as Yjs does', () => {
    const buffer = new TextBuffer({ text: 'one\ntwo' })
    const other = new Y.Doc()
    Y.applyUpdate(other, Y.encodeStateAsUpdate(buffer.doc))
    const otherText = other.getText('text')
    const atT = Y.createRelativePositionFromTypeIndex(otherText, 4)
    const atEnd = Y.createRelativePositionFromTypeIndex(otherText, 7)
    expect(buffer.positionForRelativePosition(atT)?.toArray()).toEqual([1, 0])
    buffer.insert([0, 0], 'zero\n')
    expect(buffer.positionForRelativePosition(atT)?.toArray()).toEqual([2, 0])
    expect(buffer.positionForRelativePosition(atEnd)?.toArray()).toEqual([2, 3])
    // A deleted character resolves to where it was.
    buffer.delete([
      [2, 0],
      [2, 2],
    ])
    expect(buffer.positionForRelativePosition(atT)?.toArray()).toEqual([2, 0])
    expect(Y.createAbsolutePositionFromRelativePosition(atT, buffer.doc)?.index).toBe(9)
  })

  it('is null for text this document does not have, or another type', () => {
    const buffer = new TextBuffer({ text: 'abc' })
    const other = new Y.Doc()
    other.getText('text').insert(0, 'xyz')
    const unknown = Y.createRelativePositionFromTypeIndex(other.getText('text'), 1)
    expect(buffer.positionForRelativePosition(unknown)).toBeNull()
    const otherType = Y.createRelativePositionFromTypeIndex(buffer.doc.getText('notes'), 0)
    expect(buffer.positionForRelativePosition(otherType)).toBeNull()
    expect(() => buffer.positionForRelativePosition({} as Y.RelativePosition)).toThrow(TypeError)
  })
})

describe('TextBuffer.relativePositionForPosition', () => {
  it('makes the positions Yjs makes, on a text edited by two peers', () => {
    const buffer = new TextBuffer({ text: 'one\ntwo\nthree' })
    const other = new Y.Doc()
    Y.applyUpdate(other, Y.encodeStateAsUpdate(buffer.doc))
    other.getText('text').insert(4, 'TWO ')
    Y.applyUpdate(buffer.doc, Y.encodeStateAsUpdate(other))
    buffer.insert([2, 2], 'r')
    for (let offset = 0; offset <= buffer.getText().length; offset++) {
      const point = buffer.positionForCharacterIndex(offset)
      for (const assoc of [0, -1]) {
        const expected = Y.createRelativePositionFromTypeIndex(buffer.ytext, offset, assoc)
        const made = buffer.relativePositionForPosition(point, assoc)
        expect(Y.compareRelativePositions(made, expected)).toBe(true)
      }
    }
  })

  it('ties the position to the character after it by default', () => {
    const buffer = new TextBuffer({ text: 'ab' })
    const caret = buffer.relativePositionForPosition([0, 1])
    buffer.insert([0, 1], 'XY')
    expect(buffer.positionForRelativePosition(caret)?.toArray()).toEqual([0, 3])
    const left = buffer.relativePositionForPosition([0, 1], -1)
    buffer.insert([0, 1], '_')
    expect(buffer.positionForRelativePosition(left)?.toArray()).toEqual([0, 1])
    expect(() => buffer.relativePositionForPosition([0, 0], Number.NaN)).toThrow(TypeError)
  })
})
