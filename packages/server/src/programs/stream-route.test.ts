/**
 * Streamed typing over HTTP against a real server on loopback: the body arrives a piece at a
 * time and each piece appears for a stock y-websocket client as it comes, while that client
 * types elsewhere and inside the streamed text; closing the request early stops it.
 */
import { describe, expect, it, vi } from 'vitest'
import { tokenAuth } from '../auth/token-authorizer.js'
import { signToken } from '../auth/tokens.js'
import { useTestServers } from '../testing/test-servers.js'

const WAIT = { timeout: 10_000, interval: 10 }
const SECRET = 'stream-route-test-secret-long-enough'
const servers = useTestServers('stream')

const token = (sub: string) =>
  signToken({ room: '*', role: 'write', sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET)

/** A request body that sends `pieces` one at a time, each when `next()` is called. */
const pieces = (parts: readonly string[]) => {
  const encoder = new TextEncoder()
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c
    },
  })
  let sent = 0
  return {
    body,
    next: () => controller.enqueue(encoder.encode(parts[sent++]!)),
    end: () => controller.close(),
  }
}

describe('streamed typing', () => {
  it('types each piece as it arrives at its own caret, while a person edits around and inside', async () => {
    const { port, url, server } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    ada.text.insert(0, 'Question: why?\n')
    await vi.waitFor(async () => {
      expect((await server.history.authorsOf('doc')).at(-1)?.to).toBe(15)
    }, WAIT)
    const stream = pieces(['Because ', 'the ', 'sky ', 'is ', 'blue.'])
    const answer = fetch(`http://127.0.0.1:${port}/api/rooms/doc/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token('assistant')}` },
      body: stream.body,
      duplex: 'half',
    } as RequestInit)
    stream.next()
    await vi.waitFor(() => expect(ada.text.toString()).toBe('Question: why?\nBecause '), WAIT)
    stream.next()
    await vi.waitFor(() => expect(ada.text.toString()).toContain('Because the '), WAIT)
    // Ada edits elsewhere, and inside what the stream typed.
    ada.text.insert(0, '> ')
    ada.text.insert(ada.text.toString().indexOf('the'), 'all of ')
    stream.next()
    stream.next()
    stream.next()
    stream.end()
    const result = (await (await answer).json()) as { typed: number; from: number; to: number }
    await vi.waitFor(() => {
      expect(ada.text.toString()).toBe('> Question: why?\nBecause all of the sky is blue.')
    }, WAIT)
    expect(result.typed).toBe('Because the sky is blue.'.length)
    expect(ada.text.toString().slice(result.from, result.to)).toBe(
      'Because all of the sky is blue.',
    )
    const authors = await server.history.authorsOf('doc')
    expect(authors.map((run) => run.user)).toEqual(['ada', 'assistant', 'ada', 'assistant'])
  })

  it('stops when the caller closes the stream, keeping what it typed', async () => {
    const { port, url } = await servers.start(tokenAuth(SECRET))
    const ada = servers.client(url, 'doc', { token: token('ada') })
    await ada.synced()
    const stream = pieces(['one ', 'two ', 'three'])
    const abort = new AbortController()
    const answer = fetch(`http://127.0.0.1:${port}/api/rooms/doc/stream?at=0`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token('assistant')}` },
      body: stream.body,
      duplex: 'half',
      signal: abort.signal,
    } as RequestInit)
    stream.next()
    stream.next()
    await vi.waitFor(() => expect(ada.text.toString()).toBe('one two '), WAIT)
    abort.abort()
    await expect(answer).rejects.toThrow()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(ada.text.toString()).toBe('one two ')
    // The server goes on: another stream types at once.
    const again = await fetch(`http://127.0.0.1:${port}/api/rooms/doc/stream?line=0&column=0`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token('assistant')}` },
      body: '> ',
    })
    expect(again.status).toBe(200)
    await vi.waitFor(() => expect(ada.text.toString()).toBe('> one two '), WAIT)
    const bad = await fetch(`http://127.0.0.1:${port}/api/rooms/doc/stream?at=99`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token('assistant')}` },
      body: 'x',
    })
    expect(bad.status).toBe(400)
  })
})
