/**
 * Many cursors: adding them one by one must cost the same per cursor at 1,000 and 10,000
 * (linear in total), and moving all of them at once (`moveDown`, `moveToEndOfWord`) is timed
 * per keystroke.
 */
import * as prng from 'lib0/prng'
import { defineSuite } from '../../../bench/harness.js'
import { TextEditor } from '../src/index.js'

const WORDS = ['const', 'value', 'return', 'item', 'the', 'index', '+', '=', '(', ')', '"text"']

/** `lines` lines of words, each long enough for a cursor in its middle. */
const documentText = (lines: number, seed: number): string => {
  const gen = prng.create(seed)
  const out: string[] = []
  for (let i = 0; i < lines; i++) {
    let line = '  '
    const words = prng.uint32(gen, 4, 12)
    for (let w = 0; w < words; w++) line += `${w > 0 ? ' ' : ''}${prng.oneOf(gen, WORDS)}`
    out.push(line)
  }
  return out.join('\n')
}

/** Rows 1..count, in a shuffled order: where cursors are added one by one. */
const cursorRows = (count: number, seed: number): number[] => {
  const rows = Array.from({ length: count }, (_, i) => i + 1)
  const gen = prng.create(seed)
  for (let i = rows.length - 1; i > 0; i--) {
    const j = prng.uint32(gen, 0, i)
    ;[rows[i], rows[j]] = [rows[j]!, rows[i]!]
  }
  return rows
}

export default defineSuite({
  name: 'cursors',
  description: 'TextEditor with many cursors: adding them one by one, and moving them all',
  measure: { maxRuns: 7 },
  define(s) {
    const [small, large] = s.quick ? [200, 2_000] : [1_000, 10_000]

    // Both sizes use the same document, so the ratio shows how cost grows with the number of
    // cursors alone; the smaller count spreads its cursors over the same rows.
    const addText = documentText(large + 2, 1)
    const adding = (count: number) => {
      const text = addText
      const rows = cursorRows(count, 2).map((row) => Math.ceil((row * large) / count))
      return s.case({
        name: `add ${count.toLocaleString('en')} cursors one by one`,
        setup: () => ({ editor: new TextEditor({ text }), rows }),
        run: ({ editor, rows }) => {
          for (const row of rows) editor.addCursorAtBufferPosition([row, 3], { autoscroll: false })
        },
        check: ({ editor }) => {
          if (editor.getCursors().length !== count + 1) throw new Error('cursors were lost')
        },
        teardown: ({ editor }) => editor.destroy(),
        ops: count,
        opUnit: 'cursor',
      })
    }
    const addSmall = adding(small)
    const addLarge = adding(large)
    s.scaling({
      name: `add cursors, ${large.toLocaleString('en')} vs ${small.toLocaleString('en')} (total time)`,
      small: addSmall,
      large: addLarge,
      target: `<= ${(large / small) * 1.2}`,
    })

    const moving = (count: number, move: 'moveDown' | 'moveToEndOfWord') => {
      const text = documentText(count * 2 + 2, 3)
      return s.case({
        name: `${count.toLocaleString('en')} cursors: ${move}`,
        setup: () => {
          const editor = new TextEditor({ text })
          for (let row = 1; row <= count; row++) {
            editor.addCursorAtBufferPosition([row * 2 - 1, 3], { autoscroll: false })
          }
          return editor
        },
        run: (editor) => editor[move](),
        check: (editor) => {
          if (editor.getCursors().length !== count + 1) throw new Error('cursors merged')
        },
        teardown: (editor) => editor.destroy(),
        ops: 1,
        opUnit: 'keystroke',
      })
    }
    for (const move of ['moveDown', 'moveToEndOfWord'] as const) {
      const moveSmall = moving(small, move)
      const moveLarge = moving(large, move)
      s.scaling({
        name: `${move} with all cursors, ${large.toLocaleString('en')} vs ${small.toLocaleString('en')}`,
        small: moveSmall,
        large: moveLarge,
      })
      s.report({ case: moveLarge, unit: 'ms' })
    }
  },
})
