/**
 * A multi-cursor keystroke: one `editor.insertText('x')` with a cursor on every line (or on
 * every 10th line) of a 10,000-line document, which types at every cursor as one Yjs
 * transaction and one undo step.
 *
 * Peers, measured in the same run with the same inserts: a bare Y.Text taking them in one
 * transaction, and CodeMirror's `EditorState` taking them as one transaction, once built with
 * `changeByRange` (what CodeMirror's own commands do) and once as a single change set.
 */
import { EditorSelection, EditorState } from '@codemirror/state'
import * as prng from 'lib0/prng'
import * as Y from 'yjs'
import { defineSuite } from '../../../bench/harness.js'
import { newYText, PEER_ORIGIN } from '../../../bench/peers.js'
import { TextEditor } from '../src/index.js'

const WORDS = ['const', 'value', 'return', 'item', 'the', 'index', '+', '=', '(', ')', '"text"']

/** The column every cursor types at: inside or just after each line's first word. */
const COLUMN = 3

/** `lines` code-like lines, each at least `COLUMN` characters long. */
const documentLines = (lines: number, seed: number): string[] => {
  const gen = prng.create(seed)
  const out: string[] = []
  for (let i = 0; i < lines; i++) {
    let line = '  '
    const words = prng.uint32(gen, 4, 12)
    for (let w = 0; w < words; w++) line += `${w > 0 ? ' ' : ''}${prng.oneOf(gen, WORDS)}`
    out.push(line)
  }
  return out
}

/** One keystroke's worth of work, the same for every side. */
interface Keystroke {
  readonly count: number
  readonly text: string
  /** Rows with a cursor, ascending. */
  readonly rows: readonly number[]
  /** The cursors' character offsets in `text`, ascending. */
  readonly offsets: readonly number[]
  /** `text` with an `x` typed at every cursor. */
  readonly expected: string
}

const keystroke = (lines: readonly string[], count: number): Keystroke => {
  const step = lines.length / count
  const rows = Array.from({ length: count }, (_, i) => i * step)
  const lineStarts: number[] = []
  let offset = 0
  for (const line of lines) {
    lineStarts.push(offset)
    offset += line.length + 1
  }
  const offsets = rows.map((row) => lineStarts[row]! + COLUMN)
  const text = lines.join('\n')
  const parts: string[] = []
  let from = 0
  for (const at of offsets) {
    parts.push(text.slice(from, at), 'x')
    from = at
  }
  parts.push(text.slice(from))
  return { count, text, rows, offsets, expected: parts.join('') }
}

interface TypingEditor {
  readonly editor: TextEditor
  /** Document updates (transactions that changed the text) since setup. */
  updates: number
}

export default defineSuite({
  name: 'typing',
  description: 'one multi-cursor keystroke (TextEditor.insertText) vs Y.Text and CodeMirror',
  define(s) {
    const lineCount = s.quick ? 2_000 : 10_000
    const [small, large] = s.quick ? [200, 2_000] : [1_000, 10_000]
    const lines = documentLines(lineCount, 1)
    const label = (n: number) => `${n.toLocaleString('en')} cursors`

    const sides = (count: number) => {
      const k = keystroke(lines, count)
      const common = { ops: count, opUnit: 'cursor' }

      const editor = s.case<TypingEditor>({
        name: `${label(count)}: TextEditor.insertText`,
        setup: () => {
          const doc = new Y.Doc()
          const editor = new TextEditor({ doc, text: k.text })
          editor.setCursorBufferPosition([k.rows[0]!, COLUMN], { autoscroll: false })
          for (let i = 1; i < k.rows.length; i++) {
            editor.addCursorAtBufferPosition([k.rows[i]!, COLUMN], { autoscroll: false })
          }
          const state = { editor, updates: 0 }
          doc.on('update', () => state.updates++)
          return state
        },
        run: ({ editor }) => editor.insertText('x'),
        check: ({ editor, updates }) => {
          const cursors = editor.getCursors()
          if (cursors.length !== count) {
            throw new Error(`${cursors.length} cursors after typing, expected ${count}`)
          }
          if (editor.getText() !== k.expected) throw new Error('typed text differs')
          if (updates !== 1) throw new Error(`the keystroke made ${updates} Yjs transactions`)
          const positions = editor.getCursorBufferPositions().sort((a, b) => a.compare(b))
          positions.forEach((position, i) => {
            if (position.row !== k.rows[i] || position.column !== COLUMN + 1) {
              throw new Error(`cursor ${i} is at ${position}, expected after its x`)
            }
          })
          editor.getBuffer().undo()
          if (editor.getText() !== k.text) throw new Error('one undo does not revert the keystroke')
        },
        teardown: ({ editor }) => editor.destroy(),
        ...common,
      })

      const ytext = s.case({
        name: `${label(count)}: Y.Text`,
        setup: () => newYText(k.text),
        run: (text) => {
          const { offsets } = k
          // Last to first, so every offset is still the one computed on the original text.
          text.doc!.transact(() => {
            for (let i = offsets.length - 1; i >= 0; i--) text.insert(offsets[i]!, 'x')
          }, PEER_ORIGIN)
        },
        check: (text) => {
          if (text.toString() !== k.expected) throw new Error('Y.Text: typed text differs')
        },
        ...common,
      })

      const cmState = () =>
        EditorState.create({
          doc: k.text,
          selection: EditorSelection.create(k.offsets.map((at) => EditorSelection.cursor(at))),
          extensions: EditorState.allowMultipleSelections.of(true),
        })
      /** Checks the text and the cursors (after their `x` when `typed`, else mapped before it). */
      const checkCm = (result: unknown, what: string, typed: boolean) => {
        const state = result as EditorState
        if (state.doc.toString() !== k.expected) throw new Error(`${what}: typed text differs`)
        if (state.selection.ranges.length !== count) throw new Error(`${what}: cursors merged`)
        state.selection.ranges.forEach((range, i) => {
          if (range.head !== k.offsets[i]! + i + (typed ? 1 : 0)) {
            throw new Error(`${what}: cursor ${i} is at ${range.head}`)
          }
        })
      }

      const byRange = s.case({
        name: `${label(count)}: CodeMirror changeByRange`,
        setup: cmState,
        run: (state) =>
          state.update(
            state.changeByRange((range) => ({
              changes: { from: range.from, insert: 'x' },
              range: EditorSelection.cursor(range.from + 1),
            })),
          ).state,
        check: (_, result) => checkCm(result, 'changeByRange', true),
        ...common,
      })

      const changeSet = s.case({
        name: `${label(count)}: CodeMirror one ChangeSet`,
        setup: cmState,
        run: (state) =>
          state.update({
            changes: state.selection.ranges.map((range) => ({ from: range.from, insert: 'x' })),
          }).state,
        check: (_, result) => checkCm(result, 'ChangeSet', false),
        ...common,
      })

      // The same change set with the new cursors given, so the selection is not mapped
      // through the changes: CodeMirror maps each range by walking the change set from its
      // start, which is quadratic in the cursors.
      const changeSetWithSelection = s.case({
        name: `${label(count)}: CodeMirror one ChangeSet + selection`,
        setup: cmState,
        run: (state) => {
          const { ranges } = state.selection
          return state.update({
            changes: ranges.map((range) => ({ from: range.from, insert: 'x' })),
            selection: EditorSelection.create(
              ranges.map((range, i) => EditorSelection.cursor(range.from + i + 1)),
            ),
          }).state
        },
        check: (_, result) => checkCm(result, 'ChangeSet + selection', true),
        ...common,
      })

      return { editor, ytext, byRange, changeSet, changeSetWithSelection }
    }

    const sizes = [small, large].map((count) => ({ count, ...sides(count) }))
    for (const { count, editor, ytext, byRange, changeSet, changeSetWithSelection } of sizes) {
      const n = label(count)
      s.compare({
        name: `${n}: TextEditor / Y.Text`,
        candidate: editor,
        peer: ytext,
        ...(count === large ? { target: '<= 1.3' as const } : {}),
      })
      if (count === small) {
        s.compare({
          name: `${n}: TextEditor / CodeMirror changeByRange`,
          candidate: editor,
          peer: byRange,
        })
      } else {
        // changeByRange maps every earlier range through each new change: quadratic in the
        // cursors, tens of seconds at 10,000. Measured on its own so the rows above keep
        // their runs.
        s.report({ name: `${n}: CodeMirror changeByRange`, case: byRange, unit: 'auto' })
      }
      s.compare({
        name: `${n}: TextEditor / CodeMirror one ChangeSet`,
        candidate: editor,
        peer: changeSet,
      })
      s.compare({
        name: `${n}: TextEditor / CodeMirror one ChangeSet + selection`,
        candidate: editor,
        peer: changeSetWithSelection,
      })
    }
    const few = sizes[0]!
    const many = sizes[1]!
    s.scaling({
      name: `TextEditor per cursor, ${label(large)} vs ${label(small)}`,
      small: few.editor,
      large: many.editor,
      perOp: true,
    })
    s.report({ name: `TextEditor, ${label(large)}`, case: many.editor, unit: 'ms' })
    s.report({ name: `TextEditor, ${label(large)}, per cursor`, case: many.editor, unit: 'µs/op' })
  },
})
