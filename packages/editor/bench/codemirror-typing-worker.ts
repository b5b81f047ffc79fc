/**
 * The worker side of `typeInWorker`: builds the state, warms the typing up on a few cursors,
 * says it is ready, then times one keystroke at every cursor and checks its text.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { cursorsState, TYPINGS, type TypingJob, type TypingMessage } from './codemirror-typing.js'

/** Untimed keystrokes on the first cursors only, so the timed one does not run cold. */
const WARMUP_KEYSTROKES = 5
const WARMUP_CURSORS = 100

const job = workerData as TypingJob
const type = TYPINGS[job.typing]
const post = (message: TypingMessage) => parentPort!.postMessage(message)

const warmup = cursorsState(job.text, job.offsets.slice(0, WARMUP_CURSORS))
for (let i = 0; i < WARMUP_KEYSTROKES; i++) type(warmup, job.insert)
const state = cursorsState(job.text, job.offsets)
post({ kind: 'ready' })
const started = performance.now()
const typed = type(state, job.insert)
const ms = performance.now() - started
let problem: string | null = null
if (typed.doc.toString() !== job.expected) problem = 'typed text differs'
else if (typed.selection.ranges.length !== job.offsets.length) problem = 'cursors merged'
post({ kind: 'done', ms, problem })
