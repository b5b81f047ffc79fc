/**
 * A multi-cursor keystroke: one `editor.insertText('x')` with 100, 1,000, 10,000 and 50,000
 * cursors on a 50,000-line document (a cursor on every 500th, 50th, 5th and every line), which
 * types at every cursor as one Yjs transaction and one undo step. Quick mode types with 100
 * and 1,000 cursors on 1,000 lines.
 *
 * Each size is measured twice: the first keystroke right after the cursors were added (cold),
 * and, up to 10,000 cursors, a keystroke after `WARM_KEYSTROKES` others at the same cursors
 * (warm), each against a bare Y.Text in the same state. The bare Y.Text takes the same inserts
 * in one transaction in either order: first cursor to last, each offset moved by the inserts
 * before it, or last to first, so that no offset moves. The target rows take whichever order was
 * faster at that size in the run: last to first is the slower one from 10,000 cursors on (each
 * split of the document's item moves the pieces after it in the client's item array, and going
 * backwards leaves more of them after it), and about as fast below that.
 *
 * Further peers, measured in the same run with the same inserts: CodeMirror's `EditorState`
 * taking them as one transaction,
 * built with `changeByRange` (what CodeMirror's own commands do) or as a single change set,
 * with and without the new cursors given. `changeByRange` and the change set that leaves the
 * selection to be mapped are quadratic in the cursors, so past 1,000 and 10,000 cursors (100
 * and 1,000 in quick mode) each runs once in a worker that is stopped after a time limit; a
 * stopped run shows as a lower bound on its time and an upper bound on the editor's ratio.
 */
import { EditorSelection, type EditorState } from '@codemirror/state'
import * as prng from 'lib0/prng'
import * as Y from 'yjs'
import { defineSuite, type PlotPointSpec, type Target } from '../../../bench/harness.js'
import { newYText, PEER_ORIGIN } from '../../../bench/peers.js'
import { TextEditor } from '../src/index.js'
import { cursorsState, TYPINGS, typeInWorker } from './codemirror-typing.js'

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
  /** `text` with `typed` x's typed at every cursor. */
  readonly typedTimes: (typed: number) => string
}

const keystroke = (lines: readonly string[], count: number): Keystroke => {
  const step = lines.length / count
  if (!Number.isInteger(step))
    throw new RangeError(`${count} cursors do not divide ${lines.length} lines`)
  const rows = Array.from({ length: count }, (_, i) => i * step)
  const lineStarts: number[] = []
  let offset = 0
  for (const line of lines) {
    lineStarts.push(offset)
    offset += line.length + 1
  }
  const offsets = rows.map((row) => lineStarts[row]! + COLUMN)
  const text = lines.join('\n')
  const typedTimes = (typed: number) => {
    const parts: string[] = []
    const typing = 'x'.repeat(typed)
    let from = 0
    for (const at of offsets) {
      parts.push(text.slice(from, at), typing)
      from = at
    }
    parts.push(text.slice(from))
    return parts.join('')
  }
  return { count, text, rows, offsets, expected: typedTimes(1), typedTimes }
}

/**
 * The keystroke after `typed` others on a bare Y.Text, as one transaction, first cursor to
 * last: cursor `i` stands after its own `typed` x's and the earlier cursors' ones, and each
 * insert moves it by the `i` inserts before it in this transaction.
 */
const typeFirstToLast = (text: Y.Text, offsets: readonly number[], typed: number): void => {
  text.doc!.transact(() => {
    for (let i = 0; i < offsets.length; i++) {
      text.insert(offsets[i]! + typed * (i + 1) + i, 'x')
    }
  }, PEER_ORIGIN)
}

/**
 * The keystroke after `typed` others on a bare Y.Text, as one transaction, last cursor to
 * first: cursor `i` stands after its own `typed` x's and the earlier cursors' ones, and no
 * insert of this transaction comes before it.
 */
const typeLastToFirst = (text: Y.Text, offsets: readonly number[], typed: number): void => {
  text.doc!.transact(() => {
    for (let i = offsets.length - 1; i >= 0; i--) text.insert(offsets[i]! + typed * (i + 1), 'x')
  }, PEER_ORIGIN)
}

/** The two orders a bare Y.Text peer takes the inserts in. */
const ORDERS = {
  'first to last': typeFirstToLast,
  'last to first': typeLastToFirst,
} as const
type Order = keyof typeof ORDERS

interface TypingEditor {
  readonly editor: TextEditor
  /** Document updates (transactions that changed the text) since setup. */
  updates: number
}

/** Settings of a full or a quick run. */
interface Plan {
  readonly lines: number
  readonly sizes: readonly number[]
  /** The largest count at which each CodeMirror way is measured like the other cases. */
  readonly measuredUpTo: { readonly [T in keyof typeof TYPINGS]: number }
  /** When a worker's one keystroke, at a larger count, is stopped. */
  readonly workerLimitMs: number
}

const FULL: Plan = {
  lines: 50_000,
  sizes: [100, 1_000, 10_000, 50_000],
  measuredUpTo: { changeByRange: 1_000, changeSet: 10_000 },
  workerLimitMs: 30_000,
}
const QUICK: Plan = {
  lines: 1_000,
  sizes: [100, 1_000],
  measuredUpTo: { changeByRange: 100, changeSet: 1_000 },
  workerLimitMs: 50,
}

/** How the CodeMirror ways are named in rows and cases. */
const TYPING_NAMES: { readonly [T in keyof typeof TYPINGS]: string } = {
  changeByRange: 'CodeMirror changeByRange',
  changeSet: 'CodeMirror one ChangeSet',
}

/** The design's budgets against the fastest bare Y.Text transaction, by cursor count. */
const TARGETS: ReadonlyMap<number, Target> = new Map<number, Target>([
  [1_000, '<= 5.0'],
  [10_000, '<= 2.0'],
])

/** Keystrokes typed (untimed) before the timed one of a warm case. */
const WARM_KEYSTROKES = 3

/** The largest count with warm cases: at 50,000 cursors each untimed keystroke takes seconds. */
const WARM_UP_TO = 10_000

/** Setup slower than this prints a progress line, once per size. */
const SLOW_SETUP_MS = 1_000

const formatMs = (ms: number) =>
  ms >= 1_000 ? `${(ms / 1_000).toFixed(1)} s` : `${ms.toFixed(0)} ms`

export default defineSuite({
  name: 'typing',
  description: 'one multi-cursor keystroke (TextEditor.insertText) vs Y.Text and CodeMirror',
  // Every size is in one interleaved group (the per-cursor rows tie them together), and a
  // round takes 10 s or more, nearly all of it at 50,000 cursors, where Yjs splits one item per
  // cursor in the editor and in the bare Y.Text alike (each split moves the rest of the
  // client's item array): one warm-up round, and a budget that leaves room for five rounds.
  measure: { warmups: 1, budgetMs: 60_000 },
  async define(s) {
    const plan = s.quick ? QUICK : FULL
    const lines = documentLines(plan.lines, 1)
    const label = (n: number) => `${n.toLocaleString('en')} cursors`

    const sides = (count: number) => {
      const k = keystroke(lines, count)
      const common = { ops: count, opUnit: 'cursor' }
      let setupShown = false

      /** The editor typing one keystroke after `typed` untimed ones at the same cursors. */
      const editorCase = (typed: number) =>
        s.case<TypingEditor>({
          name: `${label(count)}: TextEditor.insertText, ${typed === 0 ? 'cold' : 'warm'}`,
          setup: () => {
            const started = performance.now()
            const doc = new Y.Doc()
            const editor = new TextEditor({ doc, text: k.text })
            editor.setCursorBufferPosition([k.rows[0]!, COLUMN], { autoscroll: false })
            for (let i = 1; i < k.rows.length; i++) {
              editor.addCursorAtBufferPosition([k.rows[i]!, COLUMN], { autoscroll: false })
            }
            for (let i = 0; i < typed; i++) editor.insertText('x')
            const elapsed = performance.now() - started
            if (!setupShown && elapsed > SLOW_SETUP_MS) {
              setupShown = true
              s.progress(
                `  setup (untimed): a ${plan.lines.toLocaleString('en')}-line editor with ` +
                  `${label(count)} takes ${(elapsed / 1000).toFixed(1)} s`,
              )
            }
            const state = { editor, updates: 0 }
            doc.on('update', () => state.updates++)
            return state
          },
          run: (state) => state.editor.insertText('x'),
          check: ({ editor, updates }) => {
            const cursors = editor.getCursors()
            if (cursors.length !== count) {
              throw new Error(`${cursors.length} cursors after typing, expected ${count}`)
            }
            if (editor.getText() !== k.typedTimes(typed + 1)) throw new Error('typed text differs')
            if (updates !== 1) throw new Error(`the keystroke made ${updates} Yjs transactions`)
            const positions = editor.getCursorBufferPositions().sort((a, b) => a.compare(b))
            positions.forEach((position, i) => {
              if (position.row !== k.rows[i] || position.column !== COLUMN + typed + 1) {
                throw new Error(`cursor ${i} is at ${position}, expected after its x`)
              }
            })
            // Keystrokes in quick succession may be grouped into one undo step: only the cold
            // keystroke, the only one typed, must be undone alone.
            if (typed === 0) {
              editor.getBuffer().undo()
              if (editor.getText() !== k.text) {
                throw new Error('one undo does not revert the keystroke')
              }
            }
          },
          teardown: (state) => state.editor.destroy(),
          ...common,
        })

      /** A bare Y.Text keystroke in `order` after `typed` untimed ones (first to last). */
      const ytextCase = (typed: number, order: Order) =>
        s.case({
          name: `${label(count)}: Y.Text ${order}, ${typed === 0 ? 'cold' : 'warm'}`,
          setup: () => {
            const text = newYText(k.text)
            for (let i = 0; i < typed; i++) typeFirstToLast(text, k.offsets, i)
            return text
          },
          run: (text) => ORDERS[order](text, k.offsets, typed),
          check: (text) => {
            if (text.toString() !== k.typedTimes(typed + 1)) {
              throw new Error(`Y.Text ${order}: typed text differs`)
            }
          },
          ...common,
        })
      const sidesAfter = (typed: number) => ({
        editor: editorCase(typed),
        ytext: ytextCase(typed, 'first to last'),
        ytextBackward: ytextCase(typed, 'last to first'),
      })

      const cold = sidesAfter(0)
      const editor = cold.editor
      const ytext = cold.ytext
      const warm = count <= WARM_UP_TO ? sidesAfter(WARM_KEYSTROKES) : null

      const cmState = () => cursorsState(k.text, k.offsets)
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
      /** A CodeMirror way measured like the other cases, or null past its `measuredUpTo`. */
      const measured = (typing: keyof typeof TYPINGS, typed: boolean) =>
        count <= plan.measuredUpTo[typing]
          ? s.case({
              name: `${label(count)}: ${TYPING_NAMES[typing]}`,
              setup: cmState,
              run: (state) => TYPINGS[typing](state, 'x'),
              check: (_, result) => checkCm(result, TYPING_NAMES[typing], typed),
              ...common,
            })
          : null
      const codeMirror = {
        changeByRange: measured('changeByRange', true),
        changeSet: measured('changeSet', false),
      }

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

      return { count, k, editor, ytext, cold, warm, codeMirror, changeSetWithSelection }
    }

    const sizes = plan.sizes.map(sides)
    type Size = (typeof sizes)[number]
    const points: { [T in keyof typeof TYPINGS]: PlotPointSpec[] } = {
      changeByRange: [],
      changeSet: [],
    }

    /**
     * Rows for one CodeMirror way at one size: a compare row when it is measured, else one
     * run in a worker stopped at the plan's limit, shown as a value row with the editor's
     * ratio to it (an upper bound when the run was stopped).
     */
    const compareWith = async (size: Size, typing: keyof typeof TYPINGS) => {
      const { count, k, editor } = size
      const n = label(count)
      const name = TYPING_NAMES[typing]
      const peer = size.codeMirror[typing]
      if (peer !== null) {
        s.compare({ name: `${n}: TextEditor / ${name}`, candidate: editor, peer })
        points[typing].push({ x: count, case: peer })
        return
      }
      const limit = formatMs(plan.workerLimitMs)
      s.progress(`${name} at ${n}: one run in a worker, stopped after ${limit}`)
      const { text, offsets, expected } = k
      const outcome = await typeInWorker(
        { typing, text, offsets, insert: 'x', expected },
        plan.workerLimitMs,
      )
      s.progress(`  ${outcome.stopped ? 'stopped' : `done in ${formatMs(outcome.ms)}`}`)
      points[typing].push({ x: count, ms: outcome.ms, atLeast: outcome.stopped })
      const inSeconds = plan.workerLimitMs >= 1_000
      s.report({
        name: `${n}: ${name}, one run`,
        value: inSeconds ? outcome.ms / 1_000 : outcome.ms,
        unit: `${inSeconds ? 's' : 'ms'}${outcome.stopped ? ' or more (stopped)' : ''}`,
      })
      // The editor's median keystroke over the worker's one run; when that run was stopped,
      // its real time is longer, so this bounds the ratio from above.
      s.report({
        name: `${n}: TextEditor / ${name}`,
        value: () => (s.medianMs(editor) ?? Number.NaN) / outcome.ms,
        unit: outcome.stopped ? 'x or less (stopped)' : 'x (one run)',
      })
    }

    for (const size of sizes) {
      const n = label(size.count)
      const target = TARGETS.get(size.count)
      const temperatures: [string, typeof size.cold][] = [['cold', size.cold]]
      if (size.warm !== null) temperatures.push(['warm', size.warm])
      for (const [temperature, sides] of temperatures) {
        for (const [order, peer] of [
          ['first to last', sides.ytext],
          ['last to first', sides.ytextBackward],
        ] as const) {
          s.compare({
            name: `${n}: TextEditor / Y.Text ${order}, ${temperature}`,
            candidate: sides.editor,
            peer,
          })
        }
        // The peer is whichever order was faster in this run, so the ratio is a value row.
        s.report({
          name: `${n}: TextEditor / fastest Y.Text, ${temperature}`,
          value: () => {
            const forward = s.medianMs(sides.ytext)
            const backward = s.medianMs(sides.ytextBackward)
            const editorMs = s.medianMs(sides.editor)
            if (forward === null || backward === null || editorMs === null) return Number.NaN
            return editorMs / Math.min(forward, backward)
          },
          unit: 'x',
          ...(target === undefined ? {} : { target }),
        })
      }
      await compareWith(size, 'changeByRange')
      await compareWith(size, 'changeSet')
      s.compare({
        name: `${n}: TextEditor / CodeMirror one ChangeSet + selection`,
        candidate: size.editor,
        peer: size.changeSetWithSelection,
      })
    }
    for (let i = 1; i < sizes.length; i++) {
      const few = sizes[i - 1]!
      const many = sizes[i]!
      const versus = `${label(many.count)} vs ${label(few.count)}`
      s.scaling({
        name: `TextEditor per cursor, ${versus}`,
        small: few.editor,
        large: many.editor,
        perOp: true,
      })
      s.scaling({
        name: `Y.Text per cursor, ${versus}`,
        small: few.ytext,
        large: many.ytext,
        perOp: true,
      })
    }
    s.note(
      'Y.Text peer: the same inserts in one transaction, first cursor to last (each offset moved ' +
        'by the inserts before it) or last to first; the "fastest Y.Text" rows, which carry the ' +
        'targets, divide by whichever order was faster at that size in this run. Cold: the first ' +
        'keystroke after adding the ' +
        `cursors; warm: the keystroke after ${WARM_KEYSTROKES} others at the same cursors ` +
        `(up to ${label(WARM_UP_TO)}), against a Y.Text that took the same keystrokes.`,
    )
    const largest = sizes[sizes.length - 1]!
    s.report({ name: `TextEditor, ${label(largest.count)}`, case: largest.editor, unit: 'ms' })
    s.report({
      name: `TextEditor, ${label(largest.count)}, per cursor`,
      case: largest.editor,
      unit: 'µs/op',
    })
    s.plot({
      name: 'multi-cursor',
      title: 'One keystroke at N cursors',
      xLabel: 'cursors',
      series: [
        {
          name: 'Tandem TextEditor',
          points: sizes.map((size) => ({ x: size.count, case: size.editor })),
        },
        { name: 'Y.Text', points: sizes.map((size) => ({ x: size.count, case: size.ytext })) },
        { name: 'CodeMirror changeByRange', points: points.changeByRange },
        { name: 'CodeMirror ChangeSet', points: points.changeSet },
        {
          name: 'CodeMirror ChangeSet + selection',
          points: sizes.map((size) => ({ x: size.count, case: size.changeSetWithSelection })),
        },
      ],
    })
  },
})
