/**
 * The command line of `tandem-server`: flags become the options the server is built with.
 */
import { describe, expect, it } from 'vitest'
import { UsageError } from './auth/token-command.js'
import { parseServerArgs, type ServerOptions } from './cli-options.js'

const parse = (args: string[]) => parseServerArgs(args, {}) as ServerOptions

describe('parseServerArgs', () => {
  it('turns the limit flags into the server options, leaving the defaults to the server', () => {
    const options = parse([
      '--max-connections-per-ip',
      '20',
      '--max-messages-per-second',
      'Infinity',
      '--hide-read-only-presence',
      '--max-api-requests-per-second',
      '200',
    ])
    expect(options.limits).toMatchObject({
      maxConnectionsPerIp: 20,
      maxConnectionsPerRoom: undefined,
      hideReadOnlyPresence: true,
      rateLimits: {
        messagesPerSecond: Number.POSITIVE_INFINITY,
        bytesPerSecond: undefined,
        apiRequestsPerSecond: 200,
      },
    })
    expect(parse([]).limits.hideReadOnlyPresence).toBe(false)
  })

  it('turns the undo history caps into the server option, absent ones left to the defaults', () => {
    expect(parse(['--max-undo-steps', '50']).limits.undoHistoryLimits).toEqual({ maxSteps: 50 })
    expect(parse(['--max-undo-bytes', '4096']).limits.undoHistoryLimits).toEqual({ maxBytes: 4096 })
    expect(parse([]).limits.undoHistoryLimits).toEqual({})
    expect(() => parse(['--max-undo-steps', '-1'])).toThrow(UsageError)
  })

  it('turns the version flags into the server option, absent ones left to the defaults', () => {
    expect(parse([]).versions).toEqual({ manualOnly: false })
    expect(
      parse(['--version-pause-ms', '5000', '--version-interval-ms', '60000']).versions,
    ).toEqual({ manualOnly: false, pauseMs: 5000, maxIntervalMs: 60000 })
    expect(parse(['--manual-versions']).versions).toEqual({ manualOnly: true })
    expect(() => parse(['--version-pause-ms', 'soon'])).toThrow(UsageError)
  })

  it('refuses a bad limit or an unknown flag with a UsageError saying what is wrong', () => {
    expect(() => parse(['--max-connections-per-ip', '0'])).toThrow(
      new UsageError('--max-connections-per-ip must be a positive integer or Infinity, got 0'),
    )
    expect(() => parse(['--hide-presence'])).toThrow(UsageError)
  })
})
