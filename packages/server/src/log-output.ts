/**
 * Where `tandem-server` writes its log lines: a stream (standard output) written so that
 * logging can never hold the process up or bring it down.
 *
 * pino's default destination flushes synchronously when the process exits, and retries a
 * failed write every 100 ms for as long as it fails: with standard output a pipe whose reader
 * has gone (`tandem-server | head -1`), a shutdown that logged its last line while an earlier
 * write was on its way never ended. Here a write that fails ends logging for good, a reader
 * that does not keep up loses lines past a bound instead of growing memory, and a shutdown
 * waits for the last lines only as long as it chooses.
 */
import type { Writable } from 'node:stream'

/** Bytes of log lines waiting for a slow reader before later lines are dropped. */
export const MAX_PENDING_LOG_BYTES = 1024 * 1024

/**
 * A destination for pino (anything with `write(line)`) over `stream`.
 *
 * @example
 * const output = new LogOutput(process.stdout)
 * const logger = pino({ level: 'info' }, output)
 * await output.flush(1_000) // before process.exit
 */
export class LogOutput {
  /** Lines dropped because the reader did not keep up or the stream failed. */
  dropped = 0
  private broken = false
  /** Lines handed to the stream and not yet written out. */
  private pending = 0
  /** Called each time `pending` drops to 0 (or the stream fails). */
  private readonly waiting = new Set<() => void>()

  constructor(
    private readonly stream: Writable,
    private readonly maxPendingBytes = MAX_PENDING_LOG_BYTES,
  ) {
    // EPIPE and the like arrive here; without a listener they would end the process.
    stream.on('error', () => this.fail())
  }

  /** Whether lines are still written: false once a write has failed. */
  get writing(): boolean {
    return !this.broken
  }

  /** Writes one line, or drops it; never throws and never blocks. */
  write(line: string): void {
    if (this.broken || this.stream.destroyed || this.stream.writableLength > this.maxPendingBytes) {
      this.dropped++
      return
    }
    this.pending++
    try {
      this.stream.write(line, (error) => (error ? this.fail() : this.written()))
    } catch {
      this.fail()
    }
  }

  /**
   * Resolves once every line written so far has left the process, the stream has failed, or
   * `timeoutMs` has passed, whichever comes first; never rejects.
   */
  flush(timeoutMs: number): Promise<void> {
    if (this.broken || this.pending === 0) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiting.delete(done)
        resolve()
      }
      const timer = setTimeout(done, timeoutMs)
      this.waiting.add(done)
    })
  }

  private written(): void {
    this.pending = Math.max(0, this.pending - 1)
    if (this.pending === 0) for (const done of [...this.waiting]) done()
  }

  private fail(): void {
    this.broken = true
    this.pending = 0
    for (const done of [...this.waiting]) done()
  }
}
