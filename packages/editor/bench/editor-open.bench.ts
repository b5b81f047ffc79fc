/**
 * Opening a large fragmented document: an editor ready to show it against Yjs loading it, and
 * the memory the editor keeps per character against a bare `Y.Doc` holding it.
 *
 * The document comes from `buildFragmentedDoc` (the `automerge-paper` trace replayed, grown by
 * seeded pastes and small edits, a new client every 50,000 characters): 10M characters, 200k in
 * quick mode. Both sides start from its encoded state (`Y.encodeStateAsUpdate`), as a document
 * arrives from a server or a store. The peer applies it to a new `Y.Doc`; the editor's time
 * includes that same `Y.applyUpdate`, then the constructor, then reading the first screen's
 * lines through the editor (its display layer), so the ratio is what the editor adds to loading
 * the document. Target: at most 2.0x. Memory: retained heap of the editor with its document
 * against the document alone; target at most 1.2x.
 */
import * as Y from 'yjs'
import { defineSuite } from '../../../bench/harness.js'
import {
  buildFragmentedDoc,
  charsLabel,
  copyDoc,
  reportDocumentShape,
  TEXT_NAME,
} from '../../../bench/peers.js'
import { retainedBytes } from '../../../bench/retained-memory.js'
import { TextEditor } from '../src/index.js'

const LENGTH = 10_000_000
const QUICK_LENGTH = 200_000

/** Lines of a first screen, read through the editor once it is constructed. */
const SCREEN_LINES = 50

/** Builds whose retained memory is measured, after one warm-up build. */
const MEMORY_REPEATS = 3

/** A new document holding the encoded state `update`: what loading costs in Yjs alone. */
const loadDoc = (update: Uint8Array): Y.Doc => {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  return doc
}

/** The first screen's lines as the editor shows them. */
const firstScreen = (editor: TextEditor): string[] => {
  const lines: string[] = []
  const count = Math.min(SCREEN_LINES, editor.getScreenLineCount())
  for (let row = 0; row < count; row++) lines.push(editor.lineTextForScreenRow(row) ?? '')
  return lines
}

interface Opened {
  readonly editor: TextEditor
  readonly screen: readonly string[]
}

export default defineSuite({
  name: 'editor-open',
  description: 'an editor ready on a 10M-character fragmented document vs Yjs loading it',
  // A run allocates hundreds of megabytes at 10M characters: a full collection before each is
  // steadier, and a round takes seconds, so one warm-up and few runs.
  measure: { warmups: 1, minRuns: 3, maxRuns: 7, budgetMs: 60_000, gc: 'major' },
  async define(s) {
    const length = s.quick ? QUICK_LENGTH : LENGTH
    const label = charsLabel(length)
    const built = buildFragmentedDoc({ length, quick: s.quick, progress: s.progress })
    const { update } = built
    const expectedLines = built.text.toString().split('\n', SCREEN_LINES)
    reportDocumentShape(s, label, built)
    built.doc.destroy()

    const yjs = s.case({
      name: `${label}: Y.applyUpdate`,
      setup: () => update,
      run: loadDoc,
      check: (_, result) => {
        const doc = result as Y.Doc
        if (doc.getText(TEXT_NAME).length !== length) throw new Error('Y.Doc: length differs')
      },
    })
    const editor = s.case<Uint8Array>({
      name: `${label}: TextEditor open`,
      setup: () => update,
      run: (encoded): Opened => {
        const editor = new TextEditor({ doc: loadDoc(encoded), textName: TEXT_NAME })
        return { editor, screen: firstScreen(editor) }
      },
      check: (_, result) => {
        const { editor, screen } = result as Opened
        if (editor.getBuffer().getLength() !== length) throw new Error('editor: length differs')
        // A screen row is a buffer row, or a piece of a long one: like Atom, the editor wraps
        // lines longer than its longest screen line even without soft wrap.
        screen.forEach((text, row) => {
          const start = editor.bufferPositionForScreenPosition([row, 0])
          const line = expectedLines[start.row] ?? ''
          if (line.slice(start.column, start.column + text.length) !== text) {
            throw new Error(`editor: screen row ${row} differs from the document`)
          }
        })
        editor.destroy()
      },
    })
    s.compare({
      name: `${label}: TextEditor open / Y.applyUpdate`,
      candidate: editor,
      peer: yjs,
      target: '<= 2.0',
    })

    s.progress(`${label}: measuring retained memory`)
    const repeats = s.quick ? 1 : MEMORY_REPEATS
    const bare = await retainedBytes(
      { prepare: () => null, build: () => copyDoc(update).doc },
      repeats,
    )
    const withEditor = await retainedBytes(
      {
        prepare: () => null,
        build: () => {
          const editor = new TextEditor({ doc: copyDoc(update).doc, textName: TEXT_NAME })
          firstScreen(editor)
          return editor
        },
        release: (editor) => editor.destroy(),
      },
      repeats,
    )
    s.report({ name: `${label}: Y.Doc`, value: bare.median / length, unit: 'B/char' })
    s.report({ name: `${label}: TextEditor`, value: withEditor.median / length, unit: 'B/char' })
    s.report({
      name: `${label}: TextEditor / Y.Doc, retained memory`,
      value: withEditor.median / bare.median,
      unit: 'x',
      target: '<= 1.2',
    })
    s.note(
      `memory: median of ${repeats} build${repeats === 1 ? '' : 's'} after a warm-up; the ` +
        `editor's figure includes its document and the display layer after reading ` +
        `${SCREEN_LINES} screen lines`,
    )
  },
})
