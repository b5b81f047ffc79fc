/**
 * Two servers in this process sharing rooms: each with its own `PostgresStore` on one schema
 * and its own `RedisRelay` on one prefix, against a real PostgreSQL and Redis, with stock
 * y-websocket clients on loopback.
 */

import { MessageType } from '@tandem/protocol'
import { Redis } from 'ioredis'
import * as decoding from 'lib0/decoding'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as Y from 'yjs'
import { Room } from '../room.js'
import type { Logger } from '../server-options.js'
import { PostgresStore } from '../storage/postgres-store.js'
import { SqliteStore } from '../storage/sqlite-store.js'
import { TandemServer } from '../tandem-server.js'
import { openClient, type StockClient } from '../testing/clients.js'
import { awarenessOf, rawConnection } from '../testing/raw-connection.js'
import { recordingPeer } from '../testing/recording-peer.js'
import {
  dropSchema,
  POSTGRES_URL,
  REDIS_URL,
  scaleOutServices,
  uniqueNames,
} from '../testing/services.js'
import { RedisRelay } from './redis-relay.js'
import { RelayKind } from './relay.js'

const WAIT = { timeout: 15_000, interval: 10 }
const skip = await scaleOutServices('the scale-out tests')
const { schema, prefix } = uniqueNames('scale')

/** A logger keeping the messages it was given. */
const recordingLogger = () => {
  const messages: string[] = []
  const keep = (_fields: object, message?: string) => {
    messages.push(message ?? '')
  }
  const logger: Logger = { info: keep, warn: keep, error: keep, debug: keep }
  return { logger, messages }
}

describe.skipIf(skip !== null)('scale-out over Redis and PostgreSQL', () => {
  const closers: (() => Promise<void>)[] = []
  const clients: StockClient[] = []
  const admin = skip === null ? new Redis(REDIS_URL) : null

  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy()
    for (const close of closers.splice(0).reverse()) await close()
  })
  afterAll(async () => {
    admin?.disconnect()
    await dropSchema(schema)
  })

  const relay = async (logger?: Logger) => {
    const opened = await RedisRelay.connect({ url: REDIS_URL, prefix, logger })
    closers.push(() => opened.close())
    return opened
  }

  /** One server instance: its own store and relay on the shared schema and prefix. */
  const instance = async (options: { idleUnloadMs?: number } = {}) => {
    const { logger, messages } = recordingLogger()
    const store = await PostgresStore.open({ connectionString: POSTGRES_URL, schema })
    closers.push(() => store.close())
    const shared = await relay(logger)
    const server = new TandemServer({ store, relay: shared, logger, ...options })
    closers.push(() => server.close())
    const port = await server.listen(0, '127.0.0.1')
    return { server, relay: shared, messages, url: `ws://127.0.0.1:${port}` }
  }

  const client = (url: string, room: string) => {
    const c = openClient(url, room)
    clients.push(c)
    return c
  }

  /** The text of `room` as the shared database has it. */
  const storedText = async (room: string) => {
    const store = await PostgresStore.open({ connectionString: POSTGRES_URL, schema })
    try {
      const doc = new Y.Doc()
      for (const update of (await store.load(room)).updates) Y.applyUpdate(doc, update)
      return doc.getText('text').toString()
    } finally {
      await store.close()
    }
  }

  it('relays messages between instances, byte for byte, per room, never back to the sender', async () => {
    const [first, second] = [await relay(), await relay()]
    const heard = { first: [] as string[], second: [] as string[] }
    const listener = (into: string[]) => ({
      receive: (kind: number, data: Uint8Array) => into.push(`${kind}:${[...data].join(',')}`),
      reconnected: () => {},
    })
    await first.subscribe('one', listener(heard.first))
    const other = await second.subscribe('other', listener(heard.second))
    await second.subscribe('one', listener(heard.second))
    const every = Uint8Array.from({ length: 256 }, (_, i) => i)
    first.publish('one', RelayKind.update, every)
    second.publish('one', RelayKind.awareness, new Uint8Array([0, 13, 10, 255]))
    first.publish('other', RelayKind.queryAwareness, new Uint8Array(0))
    await vi.waitFor(() => {
      expect(heard.second).toEqual([`0:${[...every].join(',')}`, '2:'])
      expect(heard.first).toEqual(['1:0,13,10,255'])
    }, WAIT)
    other.unsubscribe()
    other.unsubscribe()
  })

  it('syncs a stock client on each instance, including concurrent edits', async () => {
    const [a, b] = [await instance(), await instance()]
    const [onA, onB] = [client(a.url, 'notes'), client(b.url, 'notes')]
    await Promise.all([onA.synced(), onB.synced()])
    onA.text.insert(0, 'hello from A')
    onB.text.insert(0, 'hello from B, ')
    await vi.waitFor(() => {
      expect(onA.text.toString()).toBe(onB.text.toString())
      expect(onA.text.length).toBe(26)
    }, WAIT)
    for (let i = 0; i < 20; i++) {
      onA.text.insert(onA.text.length, 'a')
      onB.text.insert(0, 'b')
    }
    await vi.waitFor(() => {
      expect(onA.text.toString()).toBe(onB.text.toString())
      expect(onA.text.length).toBe(66)
    }, WAIT)
    expect(await storedText('notes')).toBe(onA.text.toString())
  })

  it('shows the awareness of a client on A to a client on B, and removes it when A’s client goes', async () => {
    const [a, b] = [await instance(), await instance()]
    const onA = client(a.url, 'presence')
    await onA.synced()
    onA.provider.awareness.setLocalStateField('user', { name: 'Ada' })
    // B loads the room after A's client set its state: B asks A for it.
    const onB = client(b.url, 'presence')
    await onB.synced()
    await vi.waitFor(
      () =>
        expect(onB.provider.awareness.getStates().get(onA.doc.clientID)).toEqual({
          user: { name: 'Ada' },
        }),
      WAIT,
    )
    onA.provider.awareness.setLocalStateField('user', { name: 'Ada L.' })
    await vi.waitFor(
      () =>
        expect(onB.provider.awareness.getStates().get(onA.doc.clientID)).toEqual({
          user: { name: 'Ada L.' },
        }),
      WAIT,
    )
    // Gone without a goodbye: A removes its states and tells B.
    ;(onA.provider.ws as unknown as WebSocket).terminate()
    onA.provider.shouldConnect = false
    await vi.waitFor(
      () => expect(onB.provider.awareness.getStates().has(onA.doc.clientID)).toBe(false),
      WAIT,
    )
  })

  it("keeps a client's awareness state with the instance of its connection: no connection elsewhere, and no other instance, may change it", async () => {
    const [a, b] = [await instance(), await instance()]
    const onA = client(a.url, 'owned')
    const onB = client(b.url, 'owned')
    await Promise.all([onA.synced(), onB.synced()])
    onA.provider.awareness.setLocalStateField('user', { name: 'Ada' })
    const id = onA.doc.clientID
    await vi.waitFor(
      () => expect(onB.provider.awareness.getStates().get(id)).toEqual({ user: { name: 'Ada' } }),
      WAIT,
    )
    // A connection on B sets a state for Ada's client: B refuses it, without counting it
    // against the connection (the state is another instance's, whose client may have moved).
    const forger = await rawConnection(`${b.url}/owned`)
    forger.send(awarenessOf(id, 1_000, JSON.stringify({ user: { name: 'Mallory' } })))
    // A marker update from Ada travels after it: everyone has Ada's state, no one Mallory's.
    onA.provider.awareness.setLocalStateField('user', { name: 'Ada L.' })
    for (const c of [onA, onB]) {
      await vi.waitFor(
        () =>
          expect(c.provider.awareness.getStates().get(id)).toEqual({ user: { name: 'Ada L.' } }),
        WAIT,
      )
    }
    expect(b.server.metrics.awarenessRefusals.value({ reason: 'claimed' })).toBe(0)
    forger.ws.terminate()
    // Something on the channel publishes a state for Ada's client: A, where Ada is, refuses it.
    const rogue = await relay()
    const forged = new awarenessProtocol.Awareness(new Y.Doc())
    forged.clientID = id
    forged.meta.set(id, { clock: 2_000, lastUpdated: Date.now() })
    forged.states.set(id, { user: { name: 'Mallory' } })
    rogue.publish(
      'owned',
      RelayKind.awareness,
      awarenessProtocol.encodeAwarenessUpdate(forged, [id]),
    )
    forged.destroy()
    await vi.waitFor(
      () => expect(a.server.metrics.awarenessRefusals.value({ reason: 'claimed_relayed' })).toBe(1),
      WAIT,
    )
    expect(onA.provider.awareness.getStates().get(id)).toEqual({ user: { name: 'Ada L.' } })
  })

  it('gives a room loaded on B the edits made on A', async () => {
    const [a, b] = [await instance(), await instance()]
    const writer = client(a.url, 'later')
    await writer.synced()
    writer.text.insert(0, 'written on A')
    // A relays an update only once stored: a second client on A seeing it means it is stored.
    const watcher = client(a.url, 'later')
    await vi.waitFor(() => expect(watcher.text.toString()).toBe('written on A'), WAIT)
    expect(b.server.openRooms).toEqual([])
    const reader = client(b.url, 'later')
    await reader.synced()
    expect(reader.text.toString()).toBe('written on A')
  })

  it('stops listening to a room it unloads', async () => {
    const a = await instance({ idleUnloadMs: 50 })
    const channel = `${prefix}room:unloaded`
    const listeners = async () => {
      const [, count] = (await admin!.call('PUBSUB', 'NUMSUB', channel)) as [string, number]
      return Number(count)
    }
    const c = client(a.url, 'unloaded')
    await c.synced()
    expect(await listeners()).toBe(1)
    c.destroy()
    await vi.waitFor(async () => {
      expect(a.server.openRooms).toEqual([])
      expect(await listeners()).toBe(0)
    }, WAIT)
  })

  it('catches up from the store after losing its Redis connections, both ways', async () => {
    const [a, b] = [await instance(), await instance()]
    const [onA, onB] = [client(a.url, 'outage'), client(b.url, 'outage')]
    await Promise.all([onA.synced(), onB.synced()])
    onA.text.insert(0, 'before.')
    await vi.waitFor(() => expect(onB.text.toString()).toBe('before.'), WAIT)
    // Cut A off from Redis: what B publishes now does not reach A, nor A's edits B.
    const list = (await admin!.call('CLIENT', 'LIST')) as string
    const ids = list
      .split('\n')
      .filter((line) => line.includes(`name=tandem-`) && line.includes(a.relay.instance))
      .map((line) => /\bid=(\d+)/.exec(line)![1]!)
    expect(ids).toHaveLength(2)
    for (const id of ids) await admin!.call('CLIENT', 'KILL', 'ID', id)
    onB.text.insert(onB.text.length, ' from B during the outage.')
    onA.text.insert(onA.text.length, ' from A during the outage.')
    await vi.waitFor(() => {
      expect(onA.text.toString()).toBe(onB.text.toString())
      expect(onA.text.toString()).toContain('from B during the outage.')
      expect(onA.text.toString()).toContain('from A during the outage.')
    }, WAIT)
    await vi.waitFor(() => expect(a.messages).toContain('Redis is back'), WAIT)
    expect(a.messages).toContain('lost Redis: serving local clients only until it is back')
    // And the relay works again afterwards.
    onB.text.insert(0, 'after: ')
    await vi.waitFor(() => expect(onA.text.toString()).toMatch(/^after: /), WAIT)
  })

  it('refuses a URL that is not a Redis one, and reports an unreachable Redis by address', async () => {
    await expect(RedisRelay.connect({ url: 'http://127.0.0.1:6379' })).rejects.toThrow(TypeError)
    await expect(
      RedisRelay.connect({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 2_000 }),
    ).rejects.toThrow(/^Redis at 127\.0\.0\.1:1 is unreachable: .*ECONNREFUSED/)
  })
})

describe.skipIf(skip !== null)('an update another instance stored but never published', () => {
  it('is read from the store once a later one of the same writer arrives over the relay', async () => {
    const store = SqliteStore.open({ file: ':memory:' })
    const [here, other] = [
      await RedisRelay.connect({ url: REDIS_URL, prefix }),
      await RedisRelay.connect({ url: REDIS_URL, prefix }),
    ]
    const room = await Room.load('gap', store, { relay: here })
    const local = recordingPeer('read')
    room.join(local)
    const writer = new Y.Doc()
    const updates: Uint8Array[] = []
    writer.on('update', (update: Uint8Array) => updates.push(update))
    writer.getText('text').insert(0, 'stored ')
    writer.getText('text').insert(7, 'and published')
    // The other instance stored both, and died before publishing the first.
    await store.append('gap', updates[0]!)
    await store.append('gap', updates[1]!)
    other.publish('gap', RelayKind.update, updates[1]!)
    const shown = () => {
      const doc = new Y.Doc()
      for (const message of local.received) {
        const decoder = decoding.createDecoder(message)
        if (decoding.readVarUint(decoder) !== MessageType.sync) continue
        if (decoding.readVarUint(decoder) === 0) continue
        Y.applyUpdate(doc, decoding.readVarUint8Array(decoder))
      }
      return doc.getText('text').toString()
    }
    await vi.waitFor(() => expect(shown()).toBe('stored and published'), WAIT)
    await room.close()
    await Promise.all([here.close(), other.close()])
    await store.close()
  })
})

describe.skipIf(skip !== null)('stale awareness of a dead instance', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('is removed after 30 s without renewal, and the local clients are told', async () => {
    // Only intervals are faked (the awareness check runs every 3 s); sockets and Redis run on
    // real time. Instead of waiting, the state's last renewal is moved into the past.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const age = (ms: number) => {
      const meta = room.awareness.meta.get(client)!
      meta.lastUpdated -= ms
    }
    const store = SqliteStore.open({ file: ':memory:' })
    const [here, dead] = [
      await RedisRelay.connect({ url: REDIS_URL, prefix }),
      await RedisRelay.connect({ url: REDIS_URL, prefix }),
    ]
    const room = await Room.load('stale', store, { relay: here })
    const local = recordingPeer()
    const sent = local.received
    room.join(local)
    // A client of the other instance, as that instance publishes it.
    const remote = new awarenessProtocol.Awareness(new Y.Doc())
    remote.setLocalState({ user: { name: 'Grace' } })
    const client = remote.clientID
    dead.publish(
      'stale',
      RelayKind.awareness,
      awarenessProtocol.encodeAwarenessUpdate(remote, [client]),
    )
    await vi.waitFor(() => expect(room.awareness.getStates().has(client)).toBe(true), WAIT)
    remote.destroy()
    await dead.close()
    const before = sent.length
    age(29_000)
    vi.advanceTimersByTime(3_000)
    expect(room.awareness.getStates().has(client)).toBe(true)
    age(2_000)
    vi.advanceTimersByTime(3_000)
    expect(room.awareness.getStates().has(client)).toBe(false)
    // The local client was told of the state, then of its removal.
    const told = new awarenessProtocol.Awareness(new Y.Doc())
    const apply = (messages: Uint8Array[]) => {
      for (const message of messages) {
        const decoder = decoding.createDecoder(message)
        if (decoding.readVarUint(decoder) !== MessageType.awareness) continue
        awarenessProtocol.applyAwarenessUpdate(told, decoding.readVarUint8Array(decoder), 'server')
      }
    }
    apply(sent.slice(0, before))
    expect(told.getStates().get(client)).toEqual({ user: { name: 'Grace' } })
    apply(sent.slice(before))
    expect(told.getStates().has(client)).toBe(false)
    await room.close()
    await here.close()
    await store.close()
    told.destroy()
  })
})
