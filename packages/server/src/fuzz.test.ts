/**
 * Fuzzing a real `tandem-server` process over loopback: random and mutated y-websocket
 * messages, broken WebSocket frames, frames over the size limit, bursts and malformed HTTP,
 * while two stock clients edit another room. The process must stay up, the editors must
 * converge without ever being disconnected, and memory must stay bounded.
 *
 * Seeded with lib0/prng: `SEED=n` repeats a run; a failure prints its seed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as encoding from 'lib0/encoding'
import * as prng from 'lib0/prng'
import { afterAll, describe, expect, it, onTestFailed, vi } from 'vitest'
import { WebSocket } from 'ws'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as syncProtocol from 'y-protocols/sync'
import * as Y from 'yjs'
import { openClient, type StockClient } from './testing/clients.js'
import { ServerProcess } from './testing/server-process.js'

const SEED = Number(process.env.SEED ?? 7321)
const MAX_MESSAGE_BYTES = 64 * 1024
/** The most attacks one run makes, and the most time it spends starting them. */
const ATTACKS = 160
const ATTACK_TIME_MS = 20_000
const CONCURRENCY = 3
/** How much resident memory may grow over the fuzz. */
const MEMORY_BOUND = 128 * 1024 * 1024
const WAIT = { timeout: 15_000, interval: 25 }

const root = mkdtempSync(join(tmpdir(), 'tandem-fuzz-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

type Gen = prng.PRNG

/** Resolves when `promise` does, or after `ms` anyway: bounds every wait of an attack. */
const within = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms))])

const message = (write: (encoder: encoding.Encoder) => void): Uint8Array => {
  const encoder = encoding.createEncoder()
  write(encoder)
  return encoding.toUint8Array(encoder)
}

/** Valid y-websocket messages of every type, from a document with some history. */
const corpus = (gen: Gen): Uint8Array[] => {
  const doc = new Y.Doc()
  const updates: Uint8Array[] = []
  doc.on('update', (update: Uint8Array) => updates.push(update))
  const text = doc.getText('text')
  for (let i = 0; i < 20; i++) {
    if (text.length > 0 && prng.bool(gen)) {
      text.delete(prng.int32(gen, 0, text.length - 1), 1)
    } else {
      text.insert(prng.int32(gen, 0, text.length), prng.word(gen, 1, 6))
    }
  }
  doc.getMap('meta').set('title', prng.word(gen))
  const awareness = new awarenessProtocol.Awareness(doc)
  awareness.setLocalState({ user: { name: prng.word(gen) }, cursor: { anchor: 1 } })
  const messages = [
    message((e) => {
      encoding.writeVarUint(e, 0)
      syncProtocol.writeSyncStep1(e, doc)
    }),
    message((e) => {
      encoding.writeVarUint(e, 0)
      syncProtocol.writeSyncStep2(e, doc)
    }),
    ...updates.slice(-5).map((update) =>
      message((e) => {
        encoding.writeVarUint(e, 0)
        syncProtocol.writeUpdate(e, update)
      }),
    ),
    message((e) => {
      encoding.writeVarUint(e, 1)
      encoding.writeVarUint8Array(
        e,
        awarenessProtocol.encodeAwarenessUpdate(awareness, [doc.clientID]),
      )
    }),
    message((e) => {
      encoding.writeVarUint(e, 2)
      encoding.writeVarUint(e, 0)
      encoding.writeVarString(e, 'let me in')
    }),
    new Uint8Array([3]),
    new Uint8Array([9, 1, 2, 3]),
  ]
  awareness.destroy()
  doc.destroy()
  return messages
}

/** `data` broken in one of the ways a bad client or a bad network breaks it. */
const mutate = (gen: Gen, data: Uint8Array): Uint8Array => {
  const copy = new Uint8Array(data)
  switch (prng.int32(gen, 0, 5)) {
    case 0: // truncated
      return copy.slice(0, prng.int32(gen, 0, Math.max(0, copy.length - 1)))
    case 1: // bytes flipped
      for (let i = prng.int32(gen, 1, 4); i > 0 && copy.length > 0; i--) {
        copy[prng.int32(gen, 0, copy.length - 1)] = prng.int32(gen, 0, 255)
      }
      return copy
    case 2: {
      // a varint near the start (type, sync kind, a length) corrupted: overlong or huge
      const at = prng.int32(gen, 0, Math.min(copy.length, 6))
      const run = Array.from({ length: prng.int32(gen, 1, 12) }, () =>
        prng.bool(gen) ? 0xff : 0x80 | prng.int32(gen, 0, 127),
      )
      return new Uint8Array([...copy.slice(0, at), ...run, ...copy.slice(at + 1)])
    }
    case 3: {
      // a length prefix that promises more (or less) than there is
      const at = Math.min(copy.length, 2)
      const length = prng.int32(gen, 0, 1 << 30)
      const prefix = message((e) => encoding.writeVarUint(e, length))
      return new Uint8Array([...copy.slice(0, at), ...prefix, ...copy.slice(at + 1)])
    }
    case 4: // random bytes spliced in
      return new Uint8Array([
        ...copy.slice(0, prng.int32(gen, 0, copy.length)),
        ...prng.uint8Array(gen, prng.int32(gen, 1, 16)),
        ...copy.slice(prng.int32(gen, 0, copy.length)),
      ])
    default: // junk after a valid message
      return new Uint8Array([...copy, ...prng.uint8Array(gen, prng.int32(gen, 1, 64))])
  }
}

/** A WebSocket frame as a client writes it (masked unless told), its parts open to lies. */
const frame = (
  gen: Gen,
  options: { opcode: number; payload: Uint8Array; fin?: boolean; rsv?: number; mask?: boolean },
): Buffer => {
  const { payload } = options
  const first = ((options.fin ?? true) ? 0x80 : 0) | ((options.rsv ?? 0) << 4) | options.opcode
  const masked = options.mask ?? true
  const length =
    payload.length < 126
      ? [payload.length]
      : payload.length < 65_536
        ? [126, payload.length >> 8, payload.length & 0xff]
        : [127, 0, 0, 0, 0, ...[24, 16, 8, 0].map((shift) => (payload.length >>> shift) & 0xff)]
  const key = prng.uint8Array(gen, 4)
  const body = masked ? payload.map((byte, i) => byte ^ key[i % 4]!) : payload
  return Buffer.from([
    first,
    (masked ? 0x80 : 0) | length[0]!,
    ...length.slice(1),
    ...(masked ? key : []),
    ...body,
  ])
}

interface Outcome {
  readonly closes: number[]
}

/** A raw TCP connection to the server that has written `request`. */
const rawSocket = (port: number, request: string): Promise<Socket> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.on('error', () => {})
    socket.once('connect', () => {
      socket.write(request)
      resolve(socket)
    })
    socket.once('close', () => resolve(socket))
  })

const upgradeRequest = (gen: Gen, target: string) =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  `Sec-WebSocket-Key: ${Buffer.from(prng.uint8Array(gen, 16)).toString('base64')}\r\n` +
  'Sec-WebSocket-Version: 13\r\n\r\n'

const endSocket = async (socket: Socket) => {
  const closed = new Promise((resolve) => socket.once('close', resolve))
  if (!socket.destroyed) socket.end()
  await within(closed, 2000)
  socket.destroy()
}

/** Opens a WebSocket on `room`, lets `send` use it, then closes it; records the close code. */
const withSocket = async (
  url: string,
  room: string,
  outcome: Outcome,
  send: (ws: WebSocket) => Promise<void> | void,
) => {
  const ws = new WebSocket(`${url}/${encodeURIComponent(room)}`)
  ws.on('error', () => {})
  const closed = new Promise<void>((resolve) =>
    ws.once('close', (code) => {
      outcome.closes.push(code)
      resolve()
    }),
  )
  await within(
    new Promise((resolve) => {
      ws.once('open', resolve)
      ws.once('close', resolve)
    }),
    5000,
  )
  if (ws.readyState === ws.OPEN) await send(ws)
  // Give the server time to answer what it was sent before saying goodbye.
  await within(closed, 300)
  if (ws.readyState === ws.OPEN) ws.close(1000)
  await within(closed, 3000)
  ws.terminate()
}

/** One attack, chosen by `gen`. */
const attack = async (
  gen: Gen,
  url: string,
  port: number,
  messages: Uint8Array[],
  outcome: Outcome,
) => {
  const room = `fuzz-${prng.int32(gen, 0, 2)}`
  const valid = () => prng.oneOf(gen, messages)
  switch (prng.int32(gen, 0, 6)) {
    case 0: // random binary frames
      return withSocket(url, room, outcome, (ws) => {
        for (let i = prng.int32(gen, 1, 8); i > 0; i--) {
          ws.send(prng.uint8Array(gen, prng.int32(gen, 0, prng.bool(gen) ? 64 : 4096)))
        }
      })
    case 1:
    case 2: // mutated valid messages, sometimes after valid ones
      return withSocket(url, room, outcome, (ws) => {
        for (let i = prng.int32(gen, 1, 10); i > 0; i--) {
          ws.send(prng.int32(gen, 0, 3) === 0 ? valid() : mutate(gen, valid()))
        }
      })
    case 3: // a frame over the size limit
      return withSocket(url, room, outcome, (ws) => {
        const size = MAX_MESSAGE_BYTES + prng.int32(gen, 1, 3 * MAX_MESSAGE_BYTES)
        ws.send(new Uint8Array(size).fill(prng.int32(gen, 0, 3), 0, 1))
      })
    case 4: // a burst of valid messages, past the rate limit when long enough
      return withSocket(url, room, outcome, (ws) => {
        for (let i = prng.int32(gen, 100, 1600); i > 0; i--) ws.send(valid())
      })
    case 5: {
      // broken WebSocket frames after a real handshake
      const socket = await rawSocket(port, upgradeRequest(gen, `/${room}`))
      const payload = prng.bool(gen) ? valid() : prng.uint8Array(gen, prng.int32(gen, 0, 300))
      const frames = [
        () => Buffer.from(prng.uint8Array(gen, prng.int32(gen, 1, 64))),
        () =>
          frame(gen, { opcode: 2, payload }).subarray(0, prng.int32(gen, 1, payload.length + 5)),
        () => frame(gen, { opcode: 2, payload, mask: false }),
        () => frame(gen, { opcode: 2, payload, rsv: prng.int32(gen, 1, 7) }),
        () => frame(gen, { opcode: prng.oneOf(gen, [0, 3, 7, 11, 15]), payload }),
        () => frame(gen, { opcode: 1, payload: new Uint8Array([0xc3, 0x28, 0xff]) }),
        () => frame(gen, { opcode: 9, payload: new Uint8Array(200) }),
        () => frame(gen, { opcode: 2, payload, fin: false }),
        () => Buffer.from([0x82, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      ]
      const count = prng.int32(gen, 1, 3)
      for (let i = 0; i < count && !socket.destroyed; i++) socket.write(prng.oneOf(gen, frames)())
      await within(new Promise((resolve) => socket.once('close', resolve)), 300)
      return endSocket(socket)
    }
    default: {
      // malformed HTTP, upgrades included
      const requests = [
        'GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET /%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n',
        `GET /${'a'.repeat(700)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        upgradeRequest(gen, 'http://['),
        upgradeRequest(gen, '/%ZZ'),
        upgradeRequest(gen, ''),
        'GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
        Buffer.from(prng.uint8Array(gen, prng.int32(gen, 1, 200))).toString('latin1'),
      ]
      const socket = await rawSocket(port, prng.oneOf(gen, requests))
      await within(new Promise((resolve) => socket.once('data', resolve)), 300)
      return endSocket(socket)
    }
  }
}

/** `/healthz` and a few metrics of the process; throws with its last output if it is gone. */
const scrape = async (server: ServerProcess) => {
  const get = (path: string) =>
    fetch(`http://127.0.0.1:${server.port}${path}`).catch((error: unknown) => {
      throw new Error(
        `the server process no longer answers (${error}); its last output:\n${server.output.slice(-3000)}`,
      )
    })
  const health = await get('/healthz')
  const text = await (await get('/metrics')).text()
  const value = (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN)
  return {
    healthy: health.status === 200,
    resident: value('process_resident_memory_bytes'),
    rateLimitCloses: value('tandem_rate_limit_closes_total\\{limit="messages"\\}'),
    malformed: value('tandem_malformed_closes_total'),
  }
}

describe('tandem-server under fuzz', () => {
  it(`stays up, keeps other rooms editing, and stays within memory (seed ${SEED})`, async () => {
    onTestFailed(() => console.error(`fuzz failed with SEED=${SEED}`))
    // Attack i draws from its own generator, so it is the same whatever the timing.
    const genOf = (i: number) => prng.create(SEED * 100_000 + i)
    const gen = genOf(0)
    const server = await ServerProcess.start({
      data: join(root, 'data'),
      args: ['--max-message-bytes', String(MAX_MESSAGE_BYTES), '--log-level', 'info'],
    })
    const clients: StockClient[] = []
    let typing: NodeJS.Timeout | undefined
    try {
      const editors = [openClient(server.url, 'calm'), openClient(server.url, 'calm')]
      clients.push(...editors)
      await Promise.all(editors.map((editor) => editor.synced()))
      const baseline = await scrape(server)

      // The editors keep editing for as long as the fuzz runs.
      typing = setInterval(() => {
        const editor = prng.oneOf(gen, editors)
        const text = editor.text
        if (text.length > 0 && prng.int32(gen, 0, 3) === 0) {
          text.delete(prng.int32(gen, 0, text.length - 1), 1)
        } else {
          text.insert(prng.int32(gen, 0, text.length), prng.word(gen, 1, 3))
        }
        editor.provider.awareness.setLocalStateField('cursor', { at: text.length })
      }, 15)

      const messages = corpus(gen)
      const outcome: Outcome = { closes: [] }
      const started = Date.now()
      let made = 0
      const worker = async () => {
        while (made < ATTACKS && Date.now() - started < ATTACK_TIME_MS) {
          made += 1
          await attack(genOf(made), server.url, server.port, messages, outcome)
        }
      }
      await Promise.all(Array.from({ length: CONCURRENCY }, worker))
      clearInterval(typing)

      const after = await scrape(server)
      expect(after.healthy).toBe(true)
      // Every connection was closed by a code that names what it did wrong, or normally.
      const codes = new Set(outcome.closes)
      for (const code of codes) expect([1000, 1002, 1005, 1006, 1007, 1008, 1009]).toContain(code)
      for (const code of [1007, 1008, 1009]) expect(codes).toContain(code)
      expect(after.malformed).toBeGreaterThan(0)
      expect(after.rateLimitCloses).toBeGreaterThan(0)
      expect(after.resident - baseline.resident).toBeLessThan(MEMORY_BOUND)

      // The editors converged without ever losing their connection.
      const [a, b] = editors
      await vi.waitFor(() => expect(a!.text.toString()).toBe(b!.text.toString()), WAIT)
      expect(editors.flatMap((editor) => editor.closes)).toEqual([])
      expect(a!.text.length).toBeGreaterThan(0)
      const late = openClient(server.url, 'calm')
      clients.push(late)
      await late.synced()
      expect(late.text.toString()).toBe(a!.text.toString())
      // A room that took the fuzz still serves a newcomer.
      const newcomer = openClient(server.url, 'fuzz-0')
      clients.push(newcomer)
      await newcomer.synced()
      expect(server.output).not.toMatch(/uncaught|unhandled/i)
    } finally {
      clearInterval(typing)
      for (const c of clients) c.destroy()
      await server.kill('SIGKILL')
    }
  })
})
