/**
 * A multi-cursor keystroke in CodeMirror's `EditorState`, built the two ways the typing suite
 * compares, and a way to run one such keystroke in a worker thread that is stopped after a
 * time limit.
 *
 * Both ways are quadratic in the cursors. `changeByRange` (what CodeMirror's typing commands
 * use) maps every earlier range through each new change and composes the change sets one by
 * one: about 30 s at 10,000 cursors, minutes at 50,000. One change set without the new
 * cursors maps each old cursor by walking the change set from its start: about 1 s at
 * 10,000, 20 s at 50,000. Past those sizes a suite can only afford one bounded run, and
 * synchronous work can only be bounded from another thread.
 */
import { Worker } from 'node:worker_threads'
import { EditorSelection, EditorState } from '@codemirror/state'

/** A CodeMirror state holding `text` with a cursor at each of `offsets` (ascending). */
export const cursorsState = (text: string, offsets: readonly number[]): EditorState =>
  EditorState.create({
    doc: text,
    selection: EditorSelection.create(offsets.map((at) => EditorSelection.cursor(at))),
    extensions: EditorState.allowMultipleSelections.of(true),
  })

/** Types `insert` at every cursor with `changeByRange`; the cursors end after it. */
export const typeByRange = (state: EditorState, insert: string): EditorState =>
  state.update(
    state.changeByRange((range) => ({
      changes: { from: range.from, insert },
      range: EditorSelection.cursor(range.from + insert.length),
    })),
  ).state

/**
 * Types `insert` at every cursor as one change set, leaving CodeMirror to map the selection
 * through it: an insert at a cursor maps it before the inserted text.
 */
export const typeAsOneChangeSet = (state: EditorState, insert: string): EditorState =>
  state.update({ changes: state.selection.ranges.map((range) => ({ from: range.from, insert })) })
    .state

/** The ways of typing that a worker can run. */
export const TYPINGS = { changeByRange: typeByRange, changeSet: typeAsOneChangeSet } as const

/** One keystroke for a worker: `insert` typed at `offsets` of `text`, to end at `expected`. */
export interface TypingJob {
  readonly typing: keyof typeof TYPINGS
  readonly text: string
  readonly offsets: readonly number[]
  readonly insert: string
  readonly expected: string
}

/** Messages from the worker: built and warmed up, then the timed keystroke's outcome. */
export type TypingMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'done'; readonly ms: number; readonly problem: string | null }

/** One timed keystroke in a worker: its time, or the limit when it was stopped there. */
export interface TypingOutcome {
  readonly ms: number
  readonly stopped: boolean
}

/** How long the worker may take to load and build its state before it counts as hung. */
const READY_LIMIT_MS = 120_000

/**
 * Runs `job` once in a worker thread and stops the worker once the keystroke has run for
 * `limitMs` (loading and building the state beforehand is not counted). Resolves with the
 * keystroke's own time, or with `limitMs` and `stopped` when it was cut off; rejects when the
 * worker fails or its text differs from `job.expected`.
 */
export const typeInWorker = (job: TypingJob, limitMs: number): Promise<TypingOutcome> => {
  // A worker's entry module does not get the parent's TypeScript loader: register it first.
  const entry = new URL('./codemirror-typing-worker.ts', import.meta.url).href
  const loader = import.meta.resolve('tsx/esm/api')
  const code =
    `import(${JSON.stringify(loader)})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
  const worker = new Worker(code, { eval: true, workerData: job })
  return new Promise<TypingOutcome>((resolve, reject) => {
    let settled = false
    const finish = (outcome: TypingOutcome | Error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      if (outcome instanceof Error) reject(outcome)
      else resolve(outcome)
    }
    let timer = setTimeout(
      () => finish(new Error(`the worker was not ready within ${READY_LIMIT_MS} ms`)),
      READY_LIMIT_MS,
    )
    worker.on('message', (message: TypingMessage) => {
      if (message.kind === 'ready') {
        clearTimeout(timer)
        timer = setTimeout(() => finish({ ms: limitMs, stopped: true }), limitMs)
      } else if (message.problem !== null) {
        finish(new Error(`${job.typing} in a worker: ${message.problem}`))
      } else {
        finish({ ms: message.ms, stopped: false })
      }
    })
    worker.on('error', (error) => finish(error))
    worker.on('exit', (code) => finish(new Error(`the worker exited early with code ${code}`)))
  })
}
