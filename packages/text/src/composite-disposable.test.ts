import { describe, expect, it, vi } from 'vitest'
import { CompositeDisposable, Disposable, type DisposableLike } from './index.js'

function tracked(log: string[], name: string): Disposable {
  return new Disposable(() => log.push(name))
}

describe('CompositeDisposable', () => {
  it('disposes everything it was given, once, in insertion order', () => {
    const log: string[] = []
    const composite = new CompositeDisposable(tracked(log, 'a'), tracked(log, 'b'))
    composite.add(tracked(log, 'c'), { dispose: () => log.push('d') })
    expect(composite.disposed).toBe(false)
    composite.dispose()
    composite.dispose()
    expect(log).toEqual(['a', 'b', 'c', 'd'])
    expect(composite.disposed).toBe(true)
  })

  it('holds each disposable once even if added twice', () => {
    const dispose = vi.fn()
    const member = { dispose }
    const composite = new CompositeDisposable(member, member)
    composite.add(member)
    composite.dispose()
    expect(dispose).toHaveBeenCalledTimes(1)
  })

  it('ignores additions after it is disposed and leaves them to the caller', () => {
    const composite = new CompositeDisposable()
    composite.dispose()
    const late = new Disposable()
    composite.add(late)
    composite.dispose()
    expect(late.disposed).toBe(false)
  })

  it('remove and delete take a member out without disposing it', () => {
    const a = new Disposable()
    const b = new Disposable()
    const c = new Disposable()
    const composite = new CompositeDisposable(a, b, c)
    composite.remove(a)
    composite.delete(b)
    composite.dispose()
    expect(a.disposed).toBe(false)
    expect(b.disposed).toBe(false)
    expect(c.disposed).toBe(true)
  })

  it('clear forgets every member without disposing it and stays usable', () => {
    const a = new Disposable()
    const composite = new CompositeDisposable(a)
    composite.clear()
    const b = new Disposable()
    composite.add(b)
    composite.dispose()
    expect(a.disposed).toBe(false)
    expect(b.disposed).toBe(true)
  })

  it('nests', () => {
    const inner = new Disposable()
    const outer = new CompositeDisposable(new CompositeDisposable(inner))
    outer.dispose()
    expect(inner.disposed).toBe(true)
  })

  it('disposes every member even if some throw, then rethrows the first error', () => {
    const first = new Error('first')
    const last = new Disposable()
    const composite = new CompositeDisposable(
      new Disposable(() => {
        throw first
      }),
      new Disposable(() => {
        throw new Error('second')
      }),
      last,
    )
    expect(() => composite.dispose()).toThrow(first)
    expect(last.disposed).toBe(true)
    expect(composite.disposed).toBe(true)
  })

  it('rejects a non-disposable, naming its position, and adds none of the batch', () => {
    const composite = new CompositeDisposable()
    const good = new Disposable()
    expect(() => composite.add(good, {} as DisposableLike)).toThrow(
      new TypeError('disposables[1] must have a dispose() method, got {}'),
    )
    composite.dispose()
    expect(good.disposed).toBe(false)
    expect(() => new CompositeDisposable(null as unknown as DisposableLike)).toThrow(TypeError)
  })
})
