/**
 * The parent side of `held-server.ts`: starts it as a child process, holds and releases its
 * appends, waits for them, and kills it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import type { HeldServerCommand, HeldServerReport } from './held-server.js'

const SCRIPT = fileURLToPath(new URL('./held-server.ts', import.meta.url))

/**
 * A server process over the data folder `data`, whose appends the test holds.
 *
 * @example const server = await HeldServerProcess.start(data); await server.hold(); await server.parked(1, 1)
 */
export class HeldServerProcess {
  private parkedNow = 0
  private parkedTotal = 0
  private readonly watchers = new Set<() => void>()

  private constructor(
    private readonly child: ChildProcess,
    /** The port it listens on, on 127.0.0.1. */
    readonly port: number,
  ) {
    child.on('message', (message: HeldServerReport) => {
      if (!('parked' in message)) return
      this.parkedNow = message.parked
      this.parkedTotal = message.total
      for (const watcher of [...this.watchers]) watcher()
    })
  }

  /** Starts the process (on `port`, else a free one); resolves once it listens. */
  static async start(data: string, at?: number): Promise<HeldServerProcess> {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', SCRIPT, data, ...(at ? [String(at)] : [])],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    )
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the held server did not start')), 15_000)
      child.on('message', (message: HeldServerReport) => {
        if (!('listening' in message)) return
        clearTimeout(timer)
        resolve(message.listening)
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`the held server exited with ${code}`))
      })
    })
    return new HeldServerProcess(child, port)
  }

  /** `ws://127.0.0.1:<port>`. */
  get url(): string {
    return `ws://127.0.0.1:${this.port}`
  }

  /** Resolves once appends wait: from then on, what clients send stays out of the store. */
  hold(): Promise<void> {
    const holding = new Promise<void>((resolve) => {
      const listen = (message: HeldServerReport) => {
        if (!('holding' in message)) return
        this.child.off('message', listen)
        resolve()
      }
      this.child.on('message', listen)
    })
    this.command({ hold: true })
    return holding
  }

  /** Lets the `count` oldest waiting appends through, or all of them (and stops holding). */
  release(count: number | 'all' = 'all'): void {
    this.command({ release: count })
  }

  /** Resolves once `count` appends have waited in all, `waiting` of them still waiting. */
  parked(count: number, waiting: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.parkedTotal < count || this.parkedNow !== waiting) return
        this.watchers.delete(check)
        resolve()
      }
      this.watchers.add(check)
      check()
    })
  }

  /** Kills the process with SIGKILL and waits for it to end. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    const exited = once(this.child, 'exit')
    this.child.kill('SIGKILL')
    await exited
  }

  private command(command: HeldServerCommand): void {
    this.child.send(command)
  }
}
