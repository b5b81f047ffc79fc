/**
 * Replaying real editing traces through the editor's cursor and selection API, as a user's
 * keystrokes arrive: each patch's offset becomes a buffer point, the cursor moves there (or
 * the deleted range is selected), and the last selection types the inserted text (replacing
 * the selection, for a patch that deletes and inserts) or deletes the selected text. Each
 * patch changes the text in one Yjs transaction, as in the peer.
 *
 * Peers, the two with targets first: CodeMirror 6 bound to a Y.Text as y-codemirror.next binds
 * it, without a view (each patch one `EditorState` transaction that changes the text and puts
 * the cursor after the inserted text, mirrored into the Y.Text in one Yjs transaction of the
 * binding's origin, which a `Y.UndoManager` tracks): the editor users would pick instead, target
 * at most 1.0x; and the same patches on a bare Y.Text by index, one transaction per patch (the
 * peer of `buffer-trace-replay`), target at most 2.0x. For reference, the binding with an
 * undo step per patch (no merging within the capture timeout), CodeMirror's
 * `EditorState` alone, and the same patches applied with `TextBuffer.setTextInRange`, on a bare
 * buffer and on the buffer of an editor (what the editor adds over its buffer).
 */

import { EditorState } from '@codemirror/state'
import { TextBuffer } from '@tandem/buffer'
import { defineSuite } from '../../../bench/harness.js'
import { newYText, replayOnYText } from '../../../bench/peers.js'
import { loadTrace, replayOnTextBuffer, TRACE_NAMES, type Trace } from '../../../bench/traces.js'
import { TextEditor } from '../src/index.js'
import { HeadlessCodeMirrorYjs } from './codemirror-yjs.js'

const replayOnEditor = (trace: Trace, editor: TextEditor): TextEditor => {
  const buffer = editor.getBuffer()
  for (const patch of trace.patches) {
    const start = buffer.positionForCharacterIndex(patch.pos)
    if (patch.del > 0) {
      const end = buffer.positionForCharacterIndex(patch.pos + patch.del)
      editor.setSelectedBufferRange([start, end], { autoscroll: false })
    } else {
      editor.setCursorBufferPosition(start, { autoscroll: false })
    }
    const selection = editor.getLastSelection()
    if (patch.text.length > 0) selection.insertText(patch.text, { autoscroll: false })
    else selection.deleteSelectedText()
  }
  return editor
}

/**
 * Each patch as one CodeMirror transaction, as a keystroke there is: the change, and the cursor
 * put after its inserted text; each transaction's new state takes the next patch.
 */
const replayOnCodeMirror = (trace: Trace, start: EditorState): EditorState => {
  let state = start
  for (const patch of trace.patches) {
    const from = patch.pos
    state = state.update({
      changes: { from, to: from + patch.del, insert: patch.text },
      selection: { anchor: from + patch.text.length },
    }).state
  }
  return state
}

/** The same transactions as {@link replayOnCodeMirror}, each mirrored into the binding's Y.Text. */
const replayOnBinding = (trace: Trace, binding: HeadlessCodeMirrorYjs): HeadlessCodeMirrorYjs => {
  for (const patch of trace.patches) {
    const from = patch.pos
    binding.dispatch({
      changes: { from, to: from + patch.del, insert: patch.text },
      selection: { anchor: from + patch.text.length },
    })
  }
  return binding
}

export default defineSuite({
  name: 'trace-edit',
  description:
    'trace replay through TextEditor cursors and selections vs CodeMirror + Yjs and bare Y.Text',
  define(s) {
    for (const name of TRACE_NAMES) {
      s.progress(`loading ${name}`)
      const trace = loadTrace(name, { quick: s.quick })
      const ops = trace.patches.length
      const peer = s.case({
        name: `${name}: Y.Text`,
        setup: () => newYText(trace.startContent),
        run: (text) => replayOnYText(trace, text),
        ops,
        opUnit: 'patch',
      })
      const candidate = s.case({
        name: `${name}: TextEditor`,
        setup: () => new TextEditor({ text: trace.startContent }),
        run: (editor) => replayOnEditor(trace, editor),
        check: (editor) => {
          if (editor.getText() !== trace.endContent) throw new Error(`${name}: replay differs`)
          if (editor.getCursors().length !== 1) throw new Error(`${name}: cursors were added`)
        },
        teardown: (editor) => editor.destroy(),
        ops,
        opUnit: 'patch',
      })
      const binding = s.case({
        name: `${name}: CodeMirror + Yjs`,
        setup: () => new HeadlessCodeMirrorYjs(trace.startContent),
        run: (binding) => replayOnBinding(trace, binding),
        check: (binding) => {
          if (binding.state.doc.toString() !== trace.endContent) {
            throw new Error(`${name}: CodeMirror + Yjs differs`)
          }
          if (binding.ytext.toString() !== trace.endContent) {
            throw new Error(`${name}: the binding's Y.Text differs`)
          }
          if (binding.undoManager.undoStack.length === 0) {
            throw new Error(`${name}: the binding's undo manager tracked nothing`)
          }
        },
        ops,
        opUnit: 'patch',
      })
      // The binding's undo manager merges a change into the last undo step when it comes
      // within its capture timeout of the one before: in a replay every patch does, so the whole
      // trace becomes one step, and each merge copies that step's growing delete sets. A person
      // pauses between bursts; this peer makes every patch its own step instead, as Tandem's
      // history does, for a cost per patch that does not grow with the replay's speed.
      const bindingSteps = s.case({
        name: `${name}: CodeMirror + Yjs, a step per patch`,
        setup: () => new HeadlessCodeMirrorYjs(trace.startContent, 0),
        run: (binding) => replayOnBinding(trace, binding),
        check: (binding) => {
          if (binding.ytext.toString() !== trace.endContent) {
            throw new Error(`${name}: the binding's Y.Text differs`)
          }
        },
        ops,
        opUnit: 'patch',
      })
      const codeMirror = s.case({
        name: `${name}: CodeMirror`,
        setup: () => EditorState.create({ doc: trace.startContent }),
        run: (state) => replayOnCodeMirror(trace, state),
        check: (_, result) => {
          const text = (result as EditorState).doc.toString()
          if (text !== trace.endContent) throw new Error(`${name}: CodeMirror differs`)
        },
        ops,
        opUnit: 'patch',
      })
      const buffer = s.case({
        name: `${name}: TextBuffer`,
        setup: () => new TextBuffer({ text: trace.startContent }),
        run: (buffer) => replayOnTextBuffer(trace, buffer),
        check: (buffer) => {
          if (buffer.getText() !== trace.endContent) throw new Error(`${name}: buffer differs`)
        },
        teardown: (buffer) => buffer.destroy(),
        ops,
        opUnit: 'patch',
      })
      // The same buffer calls on an editor's buffer: what the editor's listeners (display
      // layer, selection markers) add to every change, before any cursor or selection call.
      const listened = s.case({
        name: `${name}: TextBuffer of a TextEditor`,
        setup: () => new TextEditor({ text: trace.startContent }),
        run: (editor) => replayOnTextBuffer(trace, editor.getBuffer()),
        check: (editor) => {
          if (editor.getText() !== trace.endContent) throw new Error(`${name}: buffer differs`)
        },
        teardown: (editor) => editor.destroy(),
        ops,
        opUnit: 'patch',
      })
      s.compare({
        name: `${name}: TextEditor / CodeMirror + Yjs`,
        candidate,
        peer: binding,
        target: '<= 1.0',
      })
      s.compare({ name: `${name}: TextEditor / Y.Text`, candidate, peer, target: '<= 2.0' })
      s.compare({
        name: `${name}: TextEditor / CodeMirror + Yjs, a step per patch`,
        candidate,
        peer: bindingSteps,
      })
      s.compare({ name: `${name}: TextEditor / CodeMirror`, candidate, peer: codeMirror })
      s.compare({ name: `${name}: TextEditor / TextBuffer`, candidate, peer: buffer })
      s.compare({
        name: `${name}: TextBuffer of a TextEditor / TextBuffer`,
        candidate: listened,
        peer: buffer,
      })
      s.report({ name: `${name}: TextEditor`, case: candidate, unit: 'µs/op' })
      s.report({ name: `${name}: CodeMirror + Yjs`, case: binding, unit: 'µs/op' })
      s.report({
        name: `${name}: CodeMirror + Yjs, a step per patch`,
        case: bindingSteps,
        unit: 'µs/op',
      })
      s.report({ name: `${name}: Y.Text`, case: peer, unit: 'µs/op' })
      s.report({ name: `${name}: CodeMirror`, case: codeMirror, unit: 'µs/op' })
    }
  },
})
