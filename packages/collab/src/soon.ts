/**
 * When collab does work that a burst of events asks for (publishing selections or a viewport,
 * keeping a followed peer in sight): once per animation frame in a browser, or per a given
 * number of milliseconds.
 */

const FRAME_MS = 16

/**
 * Runs `run` once soon: after `throttleMs` milliseconds when given (`0`: at the end of the
 * current task), else at the next animation frame in a browser, or after 16 ms elsewhere.
 * Returns a function that cancels it.
 *
 * @example const cancel = runSoon(() => publisher.flush(), undefined)
 */
export const runSoon = (run: () => void, throttleMs: number | undefined): (() => void) => {
  const frame = (globalThis as { requestAnimationFrame?: (callback: () => void) => number })
    .requestAnimationFrame
  if (throttleMs === undefined && frame !== undefined) {
    const handle = frame(run)
    const cancel = (globalThis as { cancelAnimationFrame?: (handle: number) => void })
      .cancelAnimationFrame
    return () => cancel?.(handle)
  }
  const timer = setTimeout(run, throttleMs ?? FRAME_MS)
  return () => clearTimeout(timer)
}

/**
 * `throttleMs` when it is absent or a number of milliseconds >= 0; else a RangeError.
 *
 * @example checkThrottle(16) // => 16
 */
export const checkThrottle = (throttleMs: unknown): number | undefined => {
  if (throttleMs !== undefined && !(typeof throttleMs === 'number' && throttleMs >= 0)) {
    throw new RangeError(`throttleMs must be a number of milliseconds >= 0, got ${throttleMs}`)
  }
  return throttleMs
}
