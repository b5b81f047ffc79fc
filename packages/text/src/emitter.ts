import { describeValue } from './assert.js'
import { callEach } from './call-each.js'
import { Disposable } from './disposable.js'

/**
 * A handler for events whose payload is `Value`.
 *
 * @example const onChange: EventHandler<ChangeEvent> = (event) => render(event.newRange)
 */
export type EventHandler<Value> = (value: Value) => void

/**
 * The event names of an event map, e.g. `'did-change' | 'did-destroy'`.
 *
 * @example type Names = EventName<{ 'did-change': number }> // 'did-change'
 */
export type EventName<Events extends object> = keyof Events & string

/**
 * The arguments `emit` takes after the name: the payload, optional when `undefined` is a
 * valid payload (events typed `void`, `undefined` or `unknown`).
 *
 * @example type A = EmitArgs<void> // [value?: void]
 */
export type EmitArgs<Value> = undefined extends Value ? [value?: Value] : [value: Value]

interface Subscription {
  readonly handler: EventHandler<never>
}

/** The handlers of one event name, and a snapshot of them that emits reuse until they change. */
interface Handlers {
  readonly set: Set<Subscription>
  snapshot: readonly Subscription[] | null
}

/**
 * Typed publish/subscribe for the objects of this project: `on` returns a `Disposable`,
 * handlers run in subscription order (`preempt` puts one first), and `emit` calls a snapshot
 * of the handlers, so subscribing or unsubscribing during an emit affects only later emits.
 *
 * A handler that throws does not stop the others: `emit` calls every handler, then rethrows
 * the first error (later ones are dropped), so the emitting object sees the failure.
 *
 * @example
 * const emitter = new Emitter<{ 'did-change': ChangeEvent; 'did-destroy': void }>()
 */
export class Emitter<Events extends object = Record<string, unknown>> {
  // Made on first subscription: many objects own an emitter that nobody ever listens to.
  #handlers: Map<string, Handlers> | null = null
  #subscriptions: Set<Disposable> | null = null
  #disposed = false

  /** Whether `dispose()` has been called. @example new Emitter().disposed // => false */
  get disposed(): boolean {
    return this.#disposed
  }

  /**
   * Calls `handler` with the payload of every `name` event until the returned `Disposable`
   * is disposed. Throws an `Error` once the emitter is disposed, since the handler could
   * never run.
   *
   * @example const sub = emitter.on('did-change', (event) => console.log(event))
   */
  on<Name extends EventName<Events>>(name: Name, handler: EventHandler<Events[Name]>): Disposable {
    return this.#subscribe(name, handler, false)
  }

  /**
   * Like `on`, but the handler runs at most once: it is unsubscribed before it is called,
   * so even a re-entrant emit from inside another handler does not call it twice.
   *
   * @example emitter.once('did-destroy', () => cleanUp())
   */
  once<Name extends EventName<Events>>(
    name: Name,
    handler: EventHandler<Events[Name]>,
  ): Disposable {
    assertHandler(handler)
    const subscription = this.#subscribe(
      name,
      (value: Events[Name]) => {
        if (subscription.disposed) return
        subscription.dispose()
        handler(value)
      },
      false,
    )
    return subscription
  }

  /**
   * Like `on`, but the handler runs before every handler subscribed so far. For an owner
   * that must update its own state before outside listeners see the event.
   *
   * @example emitter.preempt('did-change', (event) => this.invalidateCache(event))
   */
  preempt<Name extends EventName<Events>>(
    name: Name,
    handler: EventHandler<Events[Name]>,
  ): Disposable {
    return this.#subscribe(name, handler, true)
  }

  /**
   * Calls the handlers of `name` with `value`, in order. Every handler runs even if some
   * throw; the first error is rethrown after the last handler. Does nothing once disposed.
   *
   * @example emitter.emit('did-change', { oldRange, newRange })
   */
  emit<Name extends EventName<Events>>(name: Name, ...args: EmitArgs<Events[Name]>): void
  emit(name: string, value?: unknown): void {
    const handlers = this.#handlers?.get(name)
    if (handlers === undefined) return
    // The snapshot keeps this emit stable while handlers (un)subscribe: they replace it.
    handlers.snapshot ??= [...handlers.set]
    const snapshot = handlers.snapshot
    if (snapshot.length === 1) {
      ;(snapshot[0]!.handler as EventHandler<unknown>)(value)
      return
    }
    callEach(snapshot, (subscription) => {
      ;(subscription.handler as EventHandler<unknown>)(value)
    })
  }

  /**
   * Unsubscribes every handler (their `Disposable`s become disposed); the emitter stays
   * usable.
   *
   * @example emitter.clear()
   */
  clear(): void {
    const subscriptions = this.#subscriptions
    this.#subscriptions = null
    this.#handlers = null
    if (subscriptions !== null) for (const subscription of subscriptions) subscription.dispose()
  }

  /**
   * Unsubscribes every handler for good: later `emit`s do nothing and `on` throws. Safe to
   * call twice.
   *
   * @example emitter.dispose()
   */
  dispose(): void {
    this.clear()
    this.#disposed = true
  }

  /** The names that have at least one handler. @example emitter.getEventNames() // => ['did-change'] */
  getEventNames(): EventName<Events>[] {
    return [...(this.#handlers?.keys() ?? [])] as EventName<Events>[]
  }

  /** How many handlers `name` has. @example emitter.listenerCountForEventName('did-change') // => 1 */
  listenerCountForEventName(name: EventName<Events>): number {
    return this.#handlers?.get(name)?.set.size ?? 0
  }

  /** How many handlers there are across all names. @example emitter.getTotalListenerCount() // => 3 */
  getTotalListenerCount(): number {
    let total = 0
    for (const handlers of this.#handlers?.values() ?? []) total += handlers.set.size
    return total
  }

  #subscribe(name: string, handler: EventHandler<never>, first: boolean): Disposable {
    if (this.#disposed) throw new Error('Emitter has been disposed')
    assertHandler(handler)
    // A fresh object per subscription, so the same function subscribed twice is two
    // subscriptions and disposing one removes exactly that one.
    const subscription: Subscription = { handler }
    this.#handlers ??= new Map()
    const handlers = this.#handlers
    const current = handlers.get(name)
    if (current === undefined) {
      handlers.set(name, { set: new Set([subscription]), snapshot: null })
    } else if (!first) {
      current.set.add(subscription)
      current.snapshot = null
    } else {
      // Sets only append; preempting rebuilds, which is rare, so subscribing and
      // unsubscribing stay O(1) for the common case of many listeners.
      handlers.set(name, { set: new Set([subscription, ...current.set]), snapshot: null })
    }
    const disposable = new Disposable(() => {
      this.#subscriptions?.delete(disposable)
      const current = handlers.get(name)
      if (current === undefined || !current.set.delete(subscription)) return
      current.snapshot = null
      if (current.set.size === 0) handlers.delete(name)
    })
    this.#subscriptions ??= new Set()
    this.#subscriptions.add(disposable)
    return disposable
  }
}

function assertHandler(handler: unknown): asserts handler is EventHandler<never> {
  if (typeof handler !== 'function') {
    throw new TypeError(`handler must be a function, got ${describeValue(handler)}`)
  }
}
