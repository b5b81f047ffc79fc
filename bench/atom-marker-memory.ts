/**
 * Memory of markers on a layer of Atom's text buffer. Its marker index is native, allocated
 * with malloc outside the JavaScript heap, and freed malloc memory stays with the process for
 * reuse; so each measurement runs in a fresh child process (this file run as a script), where
 * the growth of the C heap is the index's size.
 */
import { execFile } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as prng from 'lib0/prng'
import { atomTextBuffer } from './atom-text-buffer.js'
import { markerDocument, markerSpecs } from './marker-workload.js'
import { heapBytes, nativeHeapBytes, settleHeap } from './retained-memory.js'

/** Which markers on which document: both are rebuilt from their seeds in the child. */
export interface AtomMarkerJob {
  readonly documentLength: number
  readonly documentSeed: number
  readonly markers: number
  readonly markerSeed: number
}

/** Bytes the markers of one job keep. */
export interface AtomMarkerMemory {
  /** On the JavaScript heap (and array buffers). */
  readonly jsBytes: number
  /** Growth of the C heap; null where it cannot be read (no `/proc/self/smaps`). */
  readonly nativeBytes: number | null
}

const SCRIPT = fileURLToPath(import.meta.url)
const REPO_ROOT = resolve(dirname(SCRIPT), '..')
/** Markers made and dropped first, so that compiling the code is not counted. */
const WARM_UP_MARKERS = 2_000

/**
 * Measures one job in a fresh node process.
 * Example: `const { jsBytes, nativeBytes } = await measureAtomMarkers(job)`.
 */
export function measureAtomMarkers(job: AtomMarkerJob): Promise<AtomMarkerMemory> {
  const args = [
    '--expose-gc',
    '--conditions=source',
    '--import',
    'tsx',
    SCRIPT,
    JSON.stringify(job),
  ]
  return new Promise((done, fail) => {
    execFile(process.execPath, args, { cwd: REPO_ROOT, timeout: 120_000 }, (error, stdout) => {
      if (error !== null) fail(error)
      else done(JSON.parse(stdout.trim().split('\n').pop()!) as AtomMarkerMemory)
    })
  })
}

/** The child's side: builds the document, measures the markers, prints the figures. */
async function measureHere(job: AtomMarkerJob): Promise<AtomMarkerMemory> {
  const text = markerDocument(prng.create(job.documentSeed), job.documentLength)
  const specs = markerSpecs(prng.create(job.markerSeed), text, job.markers)
  const TextBuffer = atomTextBuffer()
  const warmUp = new TextBuffer({ text })
  const warmUpLayer = warmUp.addMarkerLayer()
  for (const spec of specs.slice(0, WARM_UP_MARKERS))
    warmUpLayer.markRange(spec.range, spec.options)
  warmUp.destroy()

  const buffer = new TextBuffer({ text })
  const layer = buffer.addMarkerLayer()
  await settleHeap()
  const jsBefore = heapBytes()
  const nativeBefore = nativeHeapBytes()
  const markers = specs.map((spec) => layer.markRange(spec.range, spec.options))
  await settleHeap()
  const jsBytes = heapBytes() - jsBefore
  const nativeAfter = nativeHeapBytes()
  if (markers.length !== layer.getMarkerCount()) throw new Error('markers went missing')
  return {
    jsBytes,
    nativeBytes: nativeBefore === null || nativeAfter === null ? null : nativeAfter - nativeBefore,
  }
}

if (process.argv[1] === SCRIPT) {
  const job = JSON.parse(process.argv[2]!) as AtomMarkerJob
  process.stdout.write(`${JSON.stringify(await measureHere(job))}\n`)
}
