/**
 * The peer of every trace-replay budget: each editing trace replayed on a bare Y.Text by
 * index, one transaction per patch. Later suites compare their replays against this.
 */
import { defineSuite } from '../harness.js'
import { countItems, newYText, replayOnYText } from '../peers.js'
import { loadTrace, TRACE_NAMES } from '../traces.js'

export default defineSuite({
  name: 'ytext-trace',
  description: 'editing traces replayed on a bare Y.Text, one transaction per patch',
  define(s) {
    for (const name of TRACE_NAMES) {
      s.progress(`loading trace ${name}...`)
      const trace = loadTrace(name, { quick: s.quick })
      const replay = s.case({
        name,
        setup: () => newYText(trace.startContent),
        run: (text) => replayOnYText(trace, text),
        check: (text) => {
          if (text.toString() !== trace.endContent) {
            throw new Error(`replaying ${name} on Y.Text did not produce the trace's endContent`)
          }
          const { items, deleted } = countItems(text)
          s.note(
            `${name}: ${trace.patches.length.toLocaleString('en-US')} patches in ` +
              `${trace.txns.length.toLocaleString('en-US')} txns${trace.complete ? '' : ' (prefix)'}, ` +
              `${trace.endContent.length.toLocaleString('en-US')} chars, ` +
              `${items.toLocaleString('en-US')} Yjs items (${deleted.toLocaleString('en-US')} deleted), ` +
              `${trace.hasAstral ? 'has' : 'no'} astral characters`,
          )
        },
        ops: trace.patches.length,
        opUnit: 'patch',
      })
      s.report({ name: `${name} per patch`, case: replay, unit: 'µs/op' })
      s.report({ name: `${name} total`, case: replay, unit: 'ms' })
    }
  },
})
