/**
 * The editor commands under random use: random texts (indentation, tabs, CRLF, emoji, wide
 * characters, JavaScript), random selections, folds and soft wrap, then random commands. After
 * each command the editor must be sound (selections valid and apart, screen and buffer
 * positions round-trip), undo must bring the text back exactly and redo redo it; two peers
 * running commands concurrently must converge. A failure prints its seed (`SEED=n` repeats it).
 */
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Random, seeds } from '../../../testing/random.js'
import { Point, type Range, TextEditor } from './index.js'

const LINES = [
  'function greet(name) {',
  '  if (!name) {',
  '    return "hi";',
  '  }',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source with a template string
  '\treturn `hello ${name}`;',
  '}',
  '',
  '// a comment',
  '/* block',
  '   comment */',
  'const list = [1, 2, 3];',
  'emoji 😀 and 漢字 text',
  '    four spaces',
  '\t  mixed indent',
  'plain words here and there',
  '- a bullet point that runs on for a while',
]

const COMMANDS = [
  'moveLineUp',
  'moveLineDown',
  'moveSelectionLeft',
  'moveSelectionRight',
  'duplicateLines',
  'insertNewlineAbove',
  'insertNewlineBelow',
  'deleteLine',
  'joinLines',
  'transpose',
  'upperCase',
  'lowerCase',
  'splitSelectionsIntoLines',
  'consolidateSelections',
  'selectLinesContainingCursors',
  'selectWordsContainingCursors',
  'foldCurrentRow',
  'unfoldCurrentRow',
  'foldAll',
  'unfoldAll',
  'foldSelectedLines',
  'indent',
  'outdentSelectedRows',
  'toggleLineCommentsInSelection',
  'reflowSelection',
] as const

type Command = (typeof COMMANDS)[number]

const randomText = (random: Random): string => {
  const rows = Array.from({ length: random.int(1, 14) }, () => random.pick(LINES))
  return rows.join(random.chance(0.2) ? '\r\n' : '\n') + (random.chance(0.5) ? '\n' : '')
}

const randomPoint = (random: Random, editor: TextEditor): Point => {
  const row = random.int(0, editor.getLastBufferRow())
  const length = editor.lineTextForBufferRow(row)?.length ?? 0
  return editor.clipBufferPosition(new Point(row, random.int(0, length)))
}

const randomSelections = (random: Random, editor: TextEditor): void => {
  const ranges = Array.from({ length: random.int(1, 3) }, () => {
    const a = randomPoint(random, editor)
    const b = random.chance(0.5) ? a : randomPoint(random, editor)
    return a.compare(b) <= 0 ? [a, b] : [b, a]
  }) as [Point, Point][]
  editor.setSelectedBufferRanges(ranges)
}

const run = (editor: TextEditor, command: Command, random: Random): void => {
  if (command === 'foldCurrentRow' || command === 'unfoldCurrentRow') {
    editor[command]()
  } else {
    ;(editor[command] as () => void).call(editor)
  }
  if (random.chance(0.1)) editor.toggleFoldAtBufferRow(random.int(0, editor.getLastBufferRow()))
}

/** The editor's invariants: selections valid, in order and apart; positions round-trip. */
const checkSound = (editor: TextEditor, context: string): void => {
  const ranges = editor.getSelectedBufferRanges().sort((a: Range, b: Range) => a.compare(b))
  for (const range of ranges) {
    expect(editor.clipBufferRange(range).isEqual(range), `${context}: clipped ${range}`).toBe(true)
    const screen = editor.screenRangeForBufferRange(range)
    expect(screen.start.row, context).toBeLessThan(editor.getScreenLineCount())
  }
  for (let i = 1; i < ranges.length; i++) {
    const previous = ranges[i - 1]!
    const current = ranges[i]!
    const overlap = previous.end.compare(current.start) > 0
    expect(overlap, `${context}: ${previous} overlaps ${current}`).toBe(false)
  }
  const text = editor.getText()
  expect(text.includes('\uFFFD'), `${context}: a broken surrogate pair`).toBe(false)
}

describe('editor commands at random', () => {
  for (const seed of seeds(40)) {
    it(`stay sound, and undo and redo each exactly (seed ${seed})`, () => {
      const random = new Random(seed)
      const grammar = random.chance(0.5) ? 'javascript' : undefined
      const editor = new TextEditor({
        text: randomText(random),
        tabLength: random.pick([2, 4]),
        softTabs: random.chance(0.7),
        editorWidthInChars: random.int(8, 40),
        softWrapped: random.chance(0.3),
        preferredLineLength: random.int(10, 40),
        ...(grammar === undefined ? {} : { grammar }),
      })
      for (let step = 0; step < 30; step++) {
        if (random.chance(0.4)) randomSelections(random, editor)
        if (random.chance(0.1)) editor.setSoftWrapped(!editor.isSoftWrapped())
        const command = random.pick(COMMANDS)
        const context = `seed ${seed} step ${step} ${command}`
        const before = editor.getText()
        run(editor, command, random)
        checkSound(editor, context)
        const after = editor.getText()
        if (after !== before) {
          editor.undo()
          expect(editor.getText(), `${context}: undo`).toBe(before)
          editor.redo()
          expect(editor.getText(), `${context}: redo`).toBe(after)
          // As in Atom, redo puts selections back unmerged: several may meet.
          editor.mergeIntersectingSelections()
          checkSound(editor, `${context} (after redo)`)
        }
      }
    })
  }

  for (const seed of seeds(20, 1000)) {
    it(`converge when two peers run commands at once (seed ${seed})`, () => {
      const random = new Random(seed)
      const docA = new Y.Doc()
      const docB = new Y.Doc()
      const a = new TextEditor({ doc: docA })
      const b = new TextEditor({ doc: docB })
      a.setText(randomText(random))
      Y.applyUpdate(docB, Y.encodeStateAsUpdate(docA))
      for (let round = 0; round < 12; round++) {
        // Each peer works on its own copy, then they exchange what the other lacks.
        const stateA = Y.encodeStateVector(docA)
        const stateB = Y.encodeStateVector(docB)
        for (const editor of [a, b]) {
          randomSelections(random, editor)
          run(editor, random.pick(COMMANDS), random)
        }
        const toB = Y.encodeStateAsUpdate(docA, stateB)
        const toA = Y.encodeStateAsUpdate(docB, stateA)
        Y.applyUpdate(docB, toB)
        Y.applyUpdate(docA, toA)
        expect(a.getText(), `seed ${seed} round ${round}`).toBe(b.getText())
        checkSound(a, `seed ${seed} round ${round} (a)`)
        checkSound(b, `seed ${seed} round ${round} (b)`)
      }
    })
  }
})
