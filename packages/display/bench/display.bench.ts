/**
 * The display layer on large documents with soft wrap at 80 columns and folds: building it
 * beside building the buffer's line index alone, and one keystroke with its display update
 * on 10x the document, which must cost about the same (upkeep proportional to the lines an
 * edit touches, not to the document).
 */
import { TextBuffer } from '@tandem/buffer'
import * as prng from 'lib0/prng'
import { defineSuite } from '../../../bench/harness.js'
import { LineStore } from '../../buffer/src/line-store.js'
import { DisplayLayer } from '../src/index.js'

const WRAP_COLUMN = 80
/** One fold per this many lines: 1,000 folds on 100,000 lines. */
const LINES_PER_FOLD = 100
/** Keystrokes per run. */
const KEYSTROKES = 400

const WORDS = [
  'const',
  'value',
  'return',
  'function',
  '=',
  '(',
  ')',
  '{',
  '}',
  'item',
  'the',
  'of',
  'index',
  '+',
  '"text"',
]

/** Code-like lines: some indented with tabs, some long enough to wrap two or three times. */
const documentText = (lines: number, seed: number): string => {
  const gen = prng.create(seed)
  const out: string[] = []
  for (let i = 0; i < lines; i++) {
    const indent = '\t'.repeat(prng.uint32(gen, 0, 3))
    const words =
      prng.bool(gen) && prng.uint32(gen, 0, 9) === 0
        ? prng.uint32(gen, 20, 50)
        : prng.uint32(gen, 0, 12)
    let line = indent
    for (let w = 0; w < words; w++) line += (w > 0 ? ' ' : '') + prng.oneOf(gen, WORDS)
    out.push(line)
  }
  return out.join('\n')
}

/** A buffer holding `lines` lines and a fold layer with one fold of 2 to 5 lines per 100 lines. */
const foldedBuffer = (text: string, lines: number, seed: number) => {
  const buffer = new TextBuffer(text)
  const foldLayer = buffer.addMarkerLayer({ destroyInvalidatedMarkers: true })
  const gen = prng.create(seed)
  for (let start = 0; start + 6 < lines; start += LINES_PER_FOLD) {
    const row = start + prng.uint32(gen, 0, LINES_PER_FOLD - 7)
    const end = row + prng.uint32(gen, 2, 5)
    foldLayer.markRange(
      [
        [row, Number.POSITIVE_INFINITY],
        [end, Number.POSITIVE_INFINITY],
      ],
      {
        invalidate: 'overlap',
        exclusive: true,
      },
    )
  }
  return { buffer, foldLayer }
}

/** Keystroke places spread over the document, as rows and columns chosen before timing. */
const keystrokePlaces = (buffer: TextBuffer, count: number, seed: number): [number, number][] => {
  const gen = prng.create(seed)
  const places: [number, number][] = []
  for (let i = 0; i < count; i++) {
    const row = prng.uint32(gen, 0, buffer.getLastRow())
    places.push([row, prng.uint32(gen, 0, buffer.lineLengthForRow(row) ?? 0)])
  }
  return places
}

export default defineSuite({
  name: 'display',
  description:
    'DisplayLayer with soft wrap at 80 and folds: build, and a keystroke at 10x the size',
  measure: { maxRuns: 9 },
  define(s) {
    const [smallLines, largeLines] = s.quick ? [2_000, 20_000] : [10_000, 100_000]
    s.progress(`building ${largeLines.toLocaleString('en')}-line document`)
    const largeText = documentText(largeLines, 1)

    const lineIndex = s.case({
      name: `${largeLines.toLocaleString('en')} lines: line index`,
      setup: () => ({ text: largeText, store: null as LineStore | null }),
      run: (state) => {
        state.store = new LineStore(state.text)
      },
      check: ({ store }) => {
        if (store?.lineCount !== largeLines) throw new Error('line index lost lines')
      },
    })
    const build = s.case({
      name: `${largeLines.toLocaleString('en')} lines: DisplayLayer`,
      setup: () => ({
        ...foldedBuffer(largeText, largeLines, 2),
        display: null as DisplayLayer | null,
      }),
      run: (state) => {
        state.display = new DisplayLayer(state.buffer, {
          softWrapColumn: WRAP_COLUMN,
          foldLayer: state.foldLayer,
        })
      },
      check: ({ display }) => {
        if (display === null || display.getScreenLineCount() <= largeLines * 0.9) {
          throw new Error('too few screen rows')
        }
      },
      teardown: ({ display }) => display?.destroy(),
    })
    s.compare({ name: 'build: DisplayLayer / line index', candidate: build, peer: lineIndex })

    const keystrokes = (lines: number) => {
      const text = lines === largeLines ? largeText : documentText(lines, 1)
      return s.case({
        name: `${lines.toLocaleString('en')} lines: keystroke + display update`,
        setup: () => {
          const { buffer, foldLayer } = foldedBuffer(text, lines, 2)
          const display = new DisplayLayer(buffer, { softWrapColumn: WRAP_COLUMN, foldLayer })
          return { buffer, display, places: keystrokePlaces(buffer, KEYSTROKES, 3) }
        },
        run: (state) => {
          for (const place of state.places) state.buffer.insert(place, 'x')
        },
        check: ({ display, buffer }) => {
          display.checkInvariants()
          const fresh = new DisplayLayer(buffer, {
            softWrapColumn: WRAP_COLUMN,
            foldLayer: display.foldLayer,
          })
          if (fresh.getScreenLineCount() !== display.getScreenLineCount()) {
            throw new Error('the kept layer differs from a fresh one')
          }
          fresh.destroy()
        },
        teardown: ({ display }) => display.destroy(),
        ops: KEYSTROKES,
        opUnit: 'keystroke',
      })
    }
    const small = keystrokes(smallLines)
    const large = keystrokes(largeLines)
    s.scaling({
      name: `keystroke, ${largeLines.toLocaleString('en')} vs ${smallLines.toLocaleString('en')} lines`,
      small,
      large,
      target: '<= 1.5',
      perOp: true,
    })
  },
})
