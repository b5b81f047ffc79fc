/**
 * Replaying real editing traces through `TextBuffer.setTextInRange` (positions converted
 * through the buffer's own line index), beside the same patches on a bare Y.Text by index.
 */
import { defineSuite } from '../../../bench/harness.js'
import { newYText, replayOnYText } from '../../../bench/peers.js'
import { loadTrace, type Trace } from '../../../bench/traces.js'
import { TextBuffer } from '../src/index.js'

const TRACES = ['automerge-paper', 'seph-blog1', 'rustcode', 'sveltecomponent'] as const

const replayOnBuffer = (trace: Trace, buffer: TextBuffer): TextBuffer => {
  for (const patch of trace.patches) {
    const start = buffer.positionForCharacterIndex(patch.pos)
    const end = patch.del === 0 ? start : buffer.positionForCharacterIndex(patch.pos + patch.del)
    buffer.setTextInRange([start, end], patch.text, { normalizeLineEndings: false })
  }
  return buffer
}

export default defineSuite({
  name: 'buffer-trace-replay',
  description: 'TextBuffer.setTextInRange vs bare Y.Text, one transaction per patch',
  define(s) {
    for (const name of TRACES) {
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
        run: (buffer) => replayOnBuffer(trace, buffer),
        check: (buffer) => {
          if (buffer.getText() !== trace.endContent) throw new Error(`${name}: replay differs`)
        },
        ops,
        opUnit: 'patch',
      })
      s.compare({ name: `${name}: TextBuffer / Y.Text`, candidate, peer, target: '<= 1.15' })
    }
  },
})
