/**
 * Replaying real editing traces through `TextBuffer.setTextInRange` (positions converted
 * through the buffer's own line index), beside the same patches on a bare Y.Text by index.
 *
 * Two reference rows show what single parts of a buffer cost on their own, measured the same
 * way: a Y.Text with just a line index kept beside it (each patch's offset converted to a
 * row and column and back, as an editor does), and a Y.Text with a `Y.UndoManager` tracking
 * every transaction.
 */
import * as Y from 'yjs'
import { defineSuite } from '../../../bench/harness.js'
import { newYText, PEER_ORIGIN, replayOnYText } from '../../../bench/peers.js'
import { loadTrace, replayOnTextBuffer, TRACE_NAMES, type Trace } from '../../../bench/traces.js'
import { TextBuffer } from '../src/index.js'
import { LineStore } from '../src/line-store.js'

/** A Y.Text with only a line index beside it. */
interface TextWithLines {
  readonly text: Y.Text
  readonly lines: LineStore
}

const replayWithLines = (trace: Trace, { text, lines }: TextWithLines): TextWithLines => {
  const doc = text.doc!
  for (const patch of trace.patches) {
    const { row, column } = lines.positionForOffset(patch.pos)
    const pos = lines.offsetForPosition(row, column)
    doc.transact(() => {
      if (patch.del > 0) text.delete(pos, patch.del)
      if (patch.text.length > 0) text.insert(pos, patch.text)
    }, PEER_ORIGIN)
    lines.splice(pos, patch.del, patch.text)
  }
  return { text, lines }
}

const withUndoManager = (content: string): Y.Text => {
  const text = newYText(content)
  new Y.UndoManager(text, { trackedOrigins: new Set([PEER_ORIGIN]), captureTimeout: 0 })
  return text
}

export default defineSuite({
  name: 'buffer-trace-replay',
  description: 'TextBuffer.setTextInRange vs bare Y.Text, one transaction per patch',
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
        name: `${name}: TextBuffer`,
        setup: () => new TextBuffer({ text: trace.startContent }),
        run: (buffer) => replayOnTextBuffer(trace, buffer),
        check: (buffer) => {
          if (buffer.getText() !== trace.endContent) throw new Error(`${name}: replay differs`)
        },
        ops,
        opUnit: 'patch',
      })
      s.compare({ name: `${name}: TextBuffer / Y.Text`, candidate, peer, target: '<= 1.15' })
      const linesOnly = s.case({
        name: `${name}: Y.Text + line index`,
        setup: () => ({
          text: newYText(trace.startContent),
          lines: new LineStore(trace.startContent),
        }),
        run: (state) => replayWithLines(trace, state),
        check: ({ lines }) => {
          if (lines.getText() !== trace.endContent) throw new Error(`${name}: line index differs`)
        },
        ops,
        opUnit: 'patch',
      })
      s.compare({ name: `${name}: Y.Text + line index / Y.Text`, candidate: linesOnly, peer })
      const undoOnly = s.case({
        name: `${name}: Y.Text + Y.UndoManager`,
        setup: () => withUndoManager(trace.startContent),
        run: (text) => replayOnYText(trace, text),
        ops,
        opUnit: 'patch',
      })
      s.compare({ name: `${name}: Y.Text + Y.UndoManager / Y.Text`, candidate: undoOnly, peer })
    }
  },
})
