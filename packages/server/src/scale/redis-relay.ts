/**
 * `Relay` over Redis pub/sub (`ioredis`): one connection publishes, one listens, and each room
 * is the channel `<prefix>room:<room name>`. A message is, in lib0 encoding, the sender's
 * instance id (var string), the kind (var uint) and the data (var bytes): binary-safe, and an
 * instance skips its own messages.
 *
 * When either connection drops, the relay keeps going without Redis (rooms serve their local
 * clients) while ioredis reconnects; once both are back it subscribes every room's channel
 * again and calls each listener's `reconnected`, so rooms catch up from the shared store.
 */
import { randomUUID } from 'node:crypto'
import { Redis, type RedisOptions } from 'ioredis'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import type { Logger } from '../server-options.js'
import { type Relay, RelayKind, type RelayListener, type RelaySubscription } from './relay.js'

/** How to reach Redis, for `RedisRelay.connect`. */
export interface RedisRelayOptions {
  /** A Redis URL, e.g. `redis://127.0.0.1:6379` (`rediss://` for TLS). */
  readonly url: string
  /** Put before every channel name, so several deployments can share one Redis: `tandem:` unless given. */
  readonly prefix?: string
  /** How long to wait for a connection, in milliseconds: 10 000 unless given. */
  readonly connectTimeoutMs?: number
  /** Where connection problems are logged (nowhere unless given). */
  readonly logger?: Logger
}

const KINDS = new Set<number>(Object.values(RelayKind))

const SILENT: Logger = { info() {}, warn() {}, error() {}, debug() {} }

/** Waits between reconnection attempts: 100 ms more each time, at most 2 s. */
const retryDelay = (attempt: number): number => Math.min(attempt * 100, 2_000)

/** Throws a `TypeError` unless `url` is a Redis URL; returns its `host:port`, for messages. */
const checkUrl = (url: string): string => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new TypeError(`a Redis URL must look like redis://host:6379, got ${JSON.stringify(url)}`)
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new TypeError(`a Redis URL must start with redis:// or rediss://, got ${parsed.protocol}`)
  }
  return `${parsed.hostname || '127.0.0.1'}:${parsed.port || '6379'}`
}

/** Throws a `TypeError` unless `prefix` is usable in channel names. */
const checkPrefix = (prefix: string): void => {
  if (typeof prefix !== 'string' || prefix.length > 200) {
    throw new TypeError(`a Redis prefix must be a string of at most 200 characters`)
  }
}

const describeError = (error: unknown): string =>
  error instanceof Error ? error.message || String(error) : String(error)

/** The relay message `data` of `kind`, sent by `instance`. */
const encodeMessage = (instance: string, kind: RelayKind, data: Uint8Array): Buffer => {
  const encoder = encoding.createEncoder()
  encoding.writeVarString(encoder, instance)
  encoding.writeVarUint(encoder, kind)
  encoding.writeVarUint8Array(encoder, data)
  const bytes = encoding.toUint8Array(encoder)
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** A relay message's parts; throws on one that does not decode. */
const decodeMessage = (message: Uint8Array) => {
  const decoder = decoding.createDecoder(message)
  const instance = decoding.readVarString(decoder)
  const kind = decoding.readVarUint(decoder)
  if (!KINDS.has(kind)) throw new RangeError(`unknown relay message kind ${kind}`)
  const data = decoding.readVarUint8Array(decoder)
  return { instance, kind: kind as RelayKind, data }
}

/**
 * A `Relay` through Redis pub/sub.
 *
 * @example
 * const relay = await RedisRelay.connect({ url: 'redis://127.0.0.1:6379', prefix: 'tandem:' })
 * const server = new TandemServer({ store, relay })
 */
export class RedisRelay implements Relay {
  readonly instance: string
  readonly description: string
  readonly #publisher: Redis
  readonly #subscriber: Redis
  readonly #prefix: string
  readonly #logger: Logger
  /** Listeners by channel. */
  readonly #channels = new Map<string, Set<RelayListener>>()
  /** Whether a connection dropped since both were last ready. */
  #interrupted = false
  /** Resolves when the current connections drop (so nothing waits on a lost reply). */
  #interruption: Promise<void>
  #interrupt: () => void = () => {}
  #closed = false

  private constructor(
    publisher: Redis,
    subscriber: Redis,
    instance: string,
    address: string,
    options: RedisRelayOptions,
  ) {
    this.#publisher = publisher
    this.#subscriber = subscriber
    this.instance = instance
    this.#prefix = options.prefix ?? 'tandem:'
    this.description = `redis ${address} prefix ${JSON.stringify(this.#prefix)}`
    this.#logger = options.logger ?? SILENT
    this.#interruption = this.#nextInterruption()
    for (const connection of [publisher, subscriber]) {
      connection.on('error', (error: unknown) => {
        // ioredis reports each failed attempt; one line per outage is enough.
        if (!this.#interrupted && !this.#closed) {
          this.#logger.warn({ relay: this.description, err: error }, 'Redis connection error')
        }
      })
      connection.on('close', () => this.#cutOff())
      connection.on('ready', () => void this.#recover())
    }
    subscriber.on('messageBuffer', (channel: Buffer, message: Buffer) =>
      this.#deliver(channel.toString(), message),
    )
  }

  /** Connects both connections; rejects with an error naming the address when Redis is unreachable. */
  static async connect(options: RedisRelayOptions): Promise<RedisRelay> {
    const address = checkUrl(options.url)
    checkPrefix(options.prefix ?? 'tandem:')
    const instance = randomUUID()
    const connection = (role: string): Redis => {
      const settings: RedisOptions = {
        lazyConnect: true,
        connectionName: `tandem-${role}-${instance}`,
        connectTimeout: options.connectTimeoutMs ?? 10_000,
        retryStrategy: retryDelay,
        // Nothing is queued or resent while cut off: rooms catch up from the store instead.
        enableOfflineQueue: false,
        autoResubscribe: false,
        autoResendUnfulfilledCommands: false,
      }
      return new Redis(options.url, settings)
    }
    const publisher = connection('publisher')
    const subscriber = connection('subscriber')
    const errors: unknown[] = []
    const keep = (error: unknown) => errors.push(error)
    publisher.on('error', keep)
    subscriber.on('error', keep)
    try {
      await Promise.all([publisher.connect(), subscriber.connect()])
    } catch (error) {
      publisher.disconnect()
      subscriber.disconnect()
      throw new Error(`Redis at ${address} is unreachable: ${describeError(errors[0] ?? error)}`, {
        cause: errors[0] ?? error,
      })
    } finally {
      publisher.off('error', keep)
      subscriber.off('error', keep)
    }
    return new RedisRelay(publisher, subscriber, instance, address, options)
  }

  async subscribe(room: string, listener: RelayListener): Promise<RelaySubscription> {
    if (this.#closed) throw new Error(`the relay (${this.description}) is closed`)
    const channel = this.#channel(room)
    let listeners = this.#channels.get(channel)
    if (listeners === undefined) {
      listeners = new Set()
      this.#channels.set(channel, listeners)
    }
    listeners.add(listener)
    if (!this.#interrupted && this.#subscriber.status === 'ready') {
      // A reply lost with its connection must not hold the room: recovery subscribes again.
      await Promise.race([
        this.#subscriber.subscribe(channel).catch(() => this.#cutOff()),
        this.#interruption,
      ])
    }
    let subscribed = true
    return {
      unsubscribe: () => {
        if (!subscribed) return
        subscribed = false
        this.#forget(channel, listener)
      },
    }
  }

  publish(room: string, kind: RelayKind, data: Uint8Array): void {
    if (this.#closed) return
    const message = encodeMessage(this.instance, kind, data)
    this.#publisher.publish(this.#channel(room), message).catch((error: unknown) => {
      if (this.#closed) return
      if (!this.#interrupted) {
        this.#logger.warn({ relay: this.description, room, err: error }, 'could not publish')
      }
      this.#cutOff()
      // Still connected (Redis refused the command): try the catch-up again a little later.
      if (this.#publisher.status === 'ready' && this.#subscriber.status === 'ready') {
        setTimeout(() => void this.#recover(), 1_000).unref()
      }
    })
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#channels.clear()
    this.#interrupt()
    await Promise.allSettled(
      [this.#publisher, this.#subscriber].map((connection) =>
        connection.status === 'ready' ? connection.quit() : Promise.resolve(),
      ),
    )
    this.#publisher.disconnect()
    this.#subscriber.disconnect()
  }

  #channel(room: string): string {
    return `${this.#prefix}room:${room}`
  }

  #forget(channel: string, listener: RelayListener): void {
    const listeners = this.#channels.get(channel)
    if (listeners === undefined || !listeners.delete(listener) || listeners.size > 0) return
    this.#channels.delete(channel)
    if (!this.#closed && this.#subscriber.status === 'ready') {
      this.#subscriber.unsubscribe(channel).catch(() => {})
    }
  }

  #deliver(channel: string, message: Buffer): void {
    const listeners = this.#channels.get(channel)
    if (listeners === undefined || this.#closed) return
    let decoded: ReturnType<typeof decodeMessage>
    try {
      decoded = decodeMessage(new Uint8Array(message))
    } catch (error) {
      this.#logger.warn({ relay: this.description, channel, err: error }, 'malformed relay message')
      return
    }
    if (decoded.instance === this.instance) return
    for (const listener of [...listeners]) {
      try {
        listener.receive(decoded.kind, decoded.data, decoded.instance)
      } catch (error) {
        this.#logger.warn({ relay: this.description, channel, err: error }, 'relay message failed')
      }
    }
  }

  #nextInterruption(): Promise<void> {
    return new Promise((resolve) => {
      this.#interrupt = resolve
    })
  }

  /** A connection dropped (or a command failed): messages may be lost from now on. */
  #cutOff(): void {
    if (this.#closed || this.#interrupted) return
    this.#interrupted = true
    this.#interrupt()
    this.#logger.warn(
      { relay: this.description },
      'lost Redis: serving local clients only until it is back',
    )
  }

  /** Once both connections are ready after a cut: listen to every channel again, then say so. */
  async #recover(): Promise<void> {
    if (this.#closed || !this.#interrupted) return
    if (this.#publisher.status !== 'ready' || this.#subscriber.status !== 'ready') return
    this.#interrupted = false
    this.#interruption = this.#nextInterruption()
    const interruption = this.#interruption
    const channels = [...this.#channels.keys()]
    if (channels.length > 0) {
      let failed = false
      await Promise.race([
        this.#subscriber.subscribe(...channels).catch(() => {
          failed = true
          this.#cutOff()
        }),
        interruption,
      ])
      // Cut off again meanwhile: the next recovery starts over.
      if (failed || this.#interrupted || this.#closed) return
    }
    this.#logger.info({ relay: this.description, rooms: channels.length }, 'Redis is back')
    for (const channel of channels) {
      for (const listener of [...(this.#channels.get(channel) ?? [])]) {
        try {
          listener.reconnected()
        } catch (error) {
          this.#logger.warn({ relay: this.description, channel, err: error }, 'catch-up failed')
        }
      }
    }
  }
}
