/**
 * The textarea's mirror of the editor in Node: which lines it holds, where the selection is in
 * them, and what a change of the textarea was, against a simple reference over random edits.
 */
import { TextEditor } from '@tandem/editor'
import { describe, expect, it } from 'vitest'
import { Random, seeds } from '../../../testing/random.js'
import { bufferPositionInMirror, mirrorOf, textInputOf } from './input-mirror.js'

const editorWith = (text: string) => {
  const editor = new TextEditor()
  editor.setText(text)
  return editor
}

describe('the input mirror', () => {
  it('holds the current line with the caret, and the lines of a selection, selected', () => {
    const editor = editorWith('one\ntwo words\nthree')
    editor.setCursorBufferPosition([1, 4])
    expect(mirrorOf(editor)).toMatchObject({
      value: 'two words',
      selectionStart: 4,
      selectionEnd: 4,
    })
    editor.setSelectedBufferRange(
      [
        [0, 1],
        [2, 2],
      ],
      { reversed: true },
    )
    const mirror = mirrorOf(editor)
    expect(mirror).toMatchObject({
      value: 'one\ntwo words\nthree',
      selectionStart: 1,
      selectionEnd: 16,
      backward: true,
    })
    expect(bufferPositionInMirror(mirror, 16).toString()).toBe('(2, 2)')
  })

  it("keeps to the head's row for a long selection, and to a window of a long line", () => {
    const rows = Array.from({ length: 100 }, (_, i) => `row ${i}`)
    const editor = editorWith(rows.join('\n'))
    editor.setSelectedBufferRange([
      [3, 0],
      [60, 2],
    ])
    expect(mirrorOf(editor)).toMatchObject({ value: 'row 60', selectionStart: 0, selectionEnd: 2 })
    const long = 'x'.repeat(50_000)
    editor.setText(`a\n${long}`)
    editor.setCursorBufferPosition([1, 30_000])
    const mirror = mirrorOf(editor)
    expect(mirror.value.length).toBeLessThanOrEqual(4_000)
    expect(bufferPositionInMirror(mirror, mirror.selectionStart).toString()).toBe('(1, 30000)')
  })

  it('places a change at the old selection among equal letters, elsewhere where it was made', () => {
    const at = (value: string, start: number, end = start) => ({
      value,
      selectionStart: start,
      selectionEnd: end,
      backward: false,
      origin: mirrorOf(editorWith('')).origin,
    })
    expect(textInputOf(at('aaa', 1), 'aaaa')).toEqual({ from: 1, to: 1, text: 'a' })
    expect(textInputOf(at('abcd', 1, 3), 'aXd')).toEqual({ from: 1, to: 3, text: 'X' })
    expect(textInputOf(at('abc', 2), 'ac')).toEqual({ from: 1, to: 2, text: '' })
    expect(textInputOf(at('teh cat', 7), 'the cat')).toEqual({ from: 1, to: 3, text: 'he' })
  })

  it('turns random textarea changes back into the same value (seeded)', () => {
    for (const seed of seeds(200)) {
      const random = new Random(seed)
      const letters = 'ab\n'
      const word = (n: number) =>
        Array.from({ length: n }, () => letters[random.int(0, letters.length - 1)]).join('')
      const value = word(random.int(0, 12))
      const start = random.int(0, value.length)
      const end = random.int(start, value.length)
      const from = random.int(0, value.length)
      const to = random.int(from, value.length)
      const next = value.slice(0, from) + word(random.int(0, 4)) + value.slice(to)
      const mirror = {
        value,
        selectionStart: start,
        selectionEnd: end,
        backward: false,
        origin: mirrorOf(editorWith('')).origin,
      }
      const change = textInputOf(mirror, next)
      expect(
        value.slice(0, change.from) + change.text + value.slice(change.to),
        `seed ${seed}`,
      ).toBe(next)
    }
  })
})
