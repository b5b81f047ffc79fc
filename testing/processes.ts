/**
 * Server processes for tests: a free loopback port to run one on, starting one and waiting
 * until it says it is ready, and stopping it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'

/** A port nobody listens on right now, on 127.0.0.1. */
export const freePort = async (): Promise<number> => {
  const probe = createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const { port } = probe.address() as { port: number }
  probe.close()
  await once(probe, 'close')
  return port
}

/** A running process and everything it has printed so far. */
export interface StartedProcess {
  readonly child: ChildProcess
  /** stdout and stderr, interleaved as they came. */
  output(): string
}

/**
 * Runs `node` with `args`, resolving once its output contains `ready`; rejects (and kills it)
 * when it exits first or stays silent for `timeoutMs`.
 *
 * @example const server = await startNodeProcess({ args: ['server.js'], ready: 'listening' })
 */
export const startNodeProcess = async (options: {
  readonly args: readonly string[]
  readonly env?: NodeJS.ProcessEnv
  readonly ready: string
  readonly timeoutMs?: number
}): Promise<StartedProcess> => {
  const child = spawn(process.execPath, [...options.args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no "${options.ready}" from the process: ${output}`)),
      options.timeoutMs ?? 15_000,
    )
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(options.ready)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the process exited with ${code}: ${output}`))
    })
  })
  try {
    await started
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return { child, output: () => output }
}

/** Sends `signal` and waits for the exit; resolves with the exit code (null if signalled). */
export const stopProcess = async (
  child: ChildProcess,
  signal: NodeJS.Signals,
): Promise<number | null> => {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
  const exited = once(child, 'exit') as Promise<[number | null]>
  child.kill(signal)
  const [code] = await exited
  return code
}
