import { describe, expect, it, vi } from 'vitest'
import { Emitter, Range } from './index.js'

interface ChangeEvent {
  readonly oldRange: Range
  readonly newRange: Range
}

type Events = {
  'did-change': ChangeEvent
  'did-save': string
  'did-destroy': undefined
}

const change: ChangeEvent = { oldRange: new Range(), newRange: new Range([0, 0], [0, 1]) }

describe('Emitter subscription', () => {
  it('calls the handlers of an event with its payload, in subscription order', () => {
    const emitter = new Emitter<Events>()
    const log: string[] = []
    emitter.on('did-change', (event) => log.push(`a ${event.newRange}`))
    emitter.on('did-change', (event) => log.push(`b ${event.newRange}`))
    emitter.on('did-save', (path) => log.push(`save ${path}`))
    emitter.emit('did-change', change)
    emitter.emit('did-save', '/tmp/x')
    expect(log).toEqual(['a [(0, 0) - (0, 1)]', 'b [(0, 0) - (0, 1)]', 'save /tmp/x'])
  })

  it('emitting an event nobody listens to does nothing', () => {
    const emitter = new Emitter<Events>()
    expect(() => emitter.emit('did-save', 'x')).not.toThrow()
  })

  it('events typed undefined are emitted without a payload', () => {
    const emitter = new Emitter<Events>()
    const handler = vi.fn()
    emitter.on('did-destroy', handler)
    emitter.emit('did-destroy')
    expect(handler).toHaveBeenCalledWith(undefined)
  })

  it('the returned Disposable unsubscribes, and disposing it twice is safe', () => {
    const emitter = new Emitter<Events>()
    const handler = vi.fn()
    const subscription = emitter.on('did-save', handler)
    emitter.emit('did-save', 'a')
    subscription.dispose()
    subscription.dispose()
    emitter.emit('did-save', 'b')
    expect(handler).toHaveBeenCalledTimes(1)
    expect(subscription.disposed).toBe(true)
    expect(emitter.listenerCountForEventName('did-save')).toBe(0)
  })

  it('the same handler subscribed twice is called twice and unsubscribed one at a time', () => {
    const emitter = new Emitter<Events>()
    const handler = vi.fn()
    const first = emitter.on('did-save', handler)
    emitter.on('did-save', handler)
    emitter.emit('did-save', 'a')
    expect(handler).toHaveBeenCalledTimes(2)
    first.dispose()
    emitter.emit('did-save', 'b')
    expect(handler).toHaveBeenCalledTimes(3)
  })

  it('rejects a handler that is not a function', () => {
    const emitter = new Emitter<Events>()
    expect(() => emitter.on('did-save', 'nope' as never)).toThrow(
      new TypeError('handler must be a function, got "nope"'),
    )
    expect(() => emitter.once('did-save', undefined as never)).toThrow(TypeError)
    expect(emitter.getTotalListenerCount()).toBe(0)
  })
})

describe('Emitter.once', () => {
  it('runs the handler for the next event only', () => {
    const emitter = new Emitter<Events>()
    const handler = vi.fn()
    const subscription = emitter.once('did-save', handler)
    emitter.emit('did-save', 'a')
    emitter.emit('did-save', 'b')
    expect(handler).toHaveBeenCalledTimes(1)
    expect(handler).toHaveBeenCalledWith('a')
    expect(subscription.disposed).toBe(true)
    expect(emitter.listenerCountForEventName('did-save')).toBe(0)
  })

  it('can be cancelled before the event', () => {
    const emitter = new Emitter<Events>()
    const handler = vi.fn()
    emitter.once('did-save', handler).dispose()
    emitter.emit('did-save', 'a')
    expect(handler).not.toHaveBeenCalled()
  })

  it('runs once even when an earlier handler re-emits the event', () => {
    const emitter = new Emitter<Events>()
    const calls: string[] = []
    emitter.on('did-save', (path) => {
      if (path === 'outer') emitter.emit('did-save', 'inner')
    })
    emitter.once('did-save', (path) => calls.push(path))
    emitter.emit('did-save', 'outer')
    expect(calls).toEqual(['inner'])
  })
})

describe('Emitter.preempt', () => {
  it('runs the handler before those already subscribed', () => {
    const emitter = new Emitter<Events>()
    const log: string[] = []
    emitter.on('did-save', () => log.push('on'))
    emitter.preempt('did-save', () => log.push('first preempt'))
    emitter.preempt('did-save', () => log.push('second preempt'))
    emitter.on('did-save', () => log.push('late on'))
    emitter.emit('did-save', 'x')
    expect(log).toEqual(['second preempt', 'first preempt', 'on', 'late on'])
  })

  it('returns a Disposable that unsubscribes it', () => {
    const emitter = new Emitter<Events>()
    const handler = vi.fn()
    emitter.on('did-save', () => {})
    emitter.preempt('did-save', handler).dispose()
    emitter.emit('did-save', 'x')
    expect(handler).not.toHaveBeenCalled()
    expect(emitter.listenerCountForEventName('did-save')).toBe(1)
  })
})

describe('Emitter snapshot during emit', () => {
  it('a handler added during an emit runs from the next emit on', () => {
    const emitter = new Emitter<Events>()
    const late = vi.fn()
    emitter.once('did-save', () => {
      emitter.on('did-save', late)
      emitter.preempt('did-save', late)
    })
    emitter.emit('did-save', 'a')
    expect(late).not.toHaveBeenCalled()
    emitter.emit('did-save', 'b')
    expect(late).toHaveBeenCalledTimes(2)
  })

  it('a handler removed during an emit still runs in that emit, not after', () => {
    const emitter = new Emitter<Events>()
    const victim = vi.fn()
    let victimSubscription = { dispose() {} }
    emitter.on('did-save', () => victimSubscription.dispose())
    victimSubscription = emitter.on('did-save', victim)
    emitter.emit('did-save', 'a')
    emitter.emit('did-save', 'b')
    expect(victim).toHaveBeenCalledTimes(1)
    expect(victim).toHaveBeenCalledWith('a')
  })

  it('clear during an emit does not stop that emit', () => {
    const emitter = new Emitter<Events>()
    const second = vi.fn()
    emitter.on('did-save', () => emitter.clear())
    emitter.on('did-save', second)
    emitter.emit('did-save', 'a')
    emitter.emit('did-save', 'b')
    expect(second).toHaveBeenCalledTimes(1)
  })
})

describe('Emitter errors in handlers', () => {
  it('runs every handler, then rethrows the first error', () => {
    const emitter = new Emitter<Events>()
    const first = new Error('first')
    const log: string[] = []
    emitter.on('did-save', () => {
      log.push('a')
      throw first
    })
    emitter.on('did-save', () => log.push('b'))
    emitter.on('did-save', () => {
      log.push('c')
      throw new Error('second')
    })
    emitter.on('did-save', () => log.push('d'))
    expect(() => emitter.emit('did-save', 'x')).toThrow(first)
    expect(log).toEqual(['a', 'b', 'c', 'd'])
  })

  it('rethrows non-Error values unchanged and stays usable', () => {
    const emitter = new Emitter<Events>()
    const sub = emitter.on('did-save', () => {
      throw 'plain string'
    })
    let caught: unknown
    try {
      emitter.emit('did-save', 'x')
    } catch (error) {
      caught = error
    }
    expect(caught).toBe('plain string')
    sub.dispose()
    const handler = vi.fn()
    emitter.on('did-save', handler)
    emitter.emit('did-save', 'y')
    expect(handler).toHaveBeenCalledWith('y')
  })

  it('a throwing once handler is still unsubscribed', () => {
    const emitter = new Emitter<Events>()
    emitter.once('did-save', () => {
      throw new Error('boom')
    })
    expect(() => emitter.emit('did-save', 'x')).toThrow('boom')
    expect(() => emitter.emit('did-save', 'x')).not.toThrow()
  })
})

describe('Emitter.clear and Emitter.dispose', () => {
  it('clear unsubscribes everything and leaves the emitter usable', () => {
    const emitter = new Emitter<Events>()
    const handler = vi.fn()
    const subscription = emitter.on('did-save', handler)
    emitter.on('did-change', () => {})
    emitter.clear()
    expect(subscription.disposed).toBe(true)
    expect(emitter.getTotalListenerCount()).toBe(0)
    emitter.emit('did-save', 'a')
    expect(handler).not.toHaveBeenCalled()
    emitter.on('did-save', handler)
    emitter.emit('did-save', 'b')
    expect(handler).toHaveBeenCalledTimes(1)
  })

  it('a subscription from before clear cannot remove one made after it', () => {
    const emitter = new Emitter<Events>()
    const handler = vi.fn()
    const old = emitter.on('did-save', handler)
    emitter.clear()
    emitter.on('did-save', handler)
    old.dispose()
    emitter.emit('did-save', 'x')
    expect(handler).toHaveBeenCalledTimes(1)
  })

  it('dispose unsubscribes everything for good', () => {
    const emitter = new Emitter<Events>()
    const handler = vi.fn()
    const subscription = emitter.on('did-save', handler)
    expect(emitter.disposed).toBe(false)
    emitter.dispose()
    emitter.dispose()
    expect(emitter.disposed).toBe(true)
    expect(subscription.disposed).toBe(true)
    expect(() => emitter.emit('did-save', 'x')).not.toThrow()
    expect(handler).not.toHaveBeenCalled()
    expect(() => emitter.on('did-save', handler)).toThrow('Emitter has been disposed')
    expect(() => emitter.once('did-save', handler)).toThrow('Emitter has been disposed')
    expect(() => emitter.preempt('did-save', handler)).toThrow('Emitter has been disposed')
    expect(emitter.getTotalListenerCount()).toBe(0)
    expect(emitter.listenerCountForEventName('did-save')).toBe(0)
    expect(emitter.getEventNames()).toEqual([])
    subscription.dispose()
  })
})

describe('Emitter listener counts', () => {
  it('count handlers per event and in total, and list names with handlers', () => {
    const emitter = new Emitter<Events>()
    expect(emitter.getTotalListenerCount()).toBe(0)
    const a = emitter.on('did-save', () => {})
    emitter.once('did-save', () => {})
    const c = emitter.on('did-change', () => {})
    expect(emitter.listenerCountForEventName('did-save')).toBe(2)
    expect(emitter.listenerCountForEventName('did-change')).toBe(1)
    expect(emitter.listenerCountForEventName('did-destroy')).toBe(0)
    expect(emitter.getTotalListenerCount()).toBe(3)
    expect(emitter.getEventNames()).toEqual(['did-save', 'did-change'])
    emitter.emit('did-save', 'x')
    a.dispose()
    c.dispose()
    expect(emitter.getTotalListenerCount()).toBe(0)
    expect(emitter.getEventNames()).toEqual([])
  })

  it('stays linear with many subscribers', () => {
    const emitter = new Emitter<Events>()
    const subscriptions = Array.from({ length: 20_000 }, () => emitter.on('did-save', () => {}))
    expect(emitter.getTotalListenerCount()).toBe(20_000)
    for (const subscription of subscriptions) subscription.dispose()
    expect(emitter.getTotalListenerCount()).toBe(0)
  })
})

describe('Emitter typing', () => {
  it('checks event names and payloads at compile time', () => {
    const emitter = new Emitter<Events>()
    const ranges: Range[] = []
    emitter.on('did-change', (event) => ranges.push(event.newRange))
    emitter.emit('did-change', change)
    expect(ranges).toEqual([change.newRange])

    // The rejected calls run against an emitter without handlers, where they are harmless;
    // what is under test is that the compiler refuses them.
    const idle = new Emitter<Events>()
    // @ts-expect-error unknown event name
    idle.on('did-explode', () => {})
    // @ts-expect-error payload of the wrong type
    idle.emit('did-save', 42)
    // @ts-expect-error payload missing
    idle.emit('did-change')
    // @ts-expect-error handler expects the wrong payload
    idle.on('did-save', (value: number) => value)
    // @ts-expect-error unknown name for counts
    idle.listenerCountForEventName('nope')
  })

  it('accepts void for payload-less events, as event maps often write them', () => {
    // biome-ignore lint/suspicious/noConfusingVoidType: the common way to type a payload-less event
    type VoidEvents = { 'did-destroy': void }
    const emitter = new Emitter<VoidEvents>()
    const handler = vi.fn()
    emitter.on('did-destroy', () => handler())
    emitter.emit('did-destroy')
    expect(handler).toHaveBeenCalledTimes(1)
  })

  it('an untyped emitter accepts any name and an optional payload', () => {
    const emitter = new Emitter()
    const handler = vi.fn()
    emitter.on('anything', handler)
    emitter.emit('anything', { some: 'value' })
    emitter.emit('anything')
    expect(handler).toHaveBeenNthCalledWith(1, { some: 'value' })
    expect(handler).toHaveBeenNthCalledWith(2, undefined)
  })
})
