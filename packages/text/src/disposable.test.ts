import { describe, expect, it, vi } from 'vitest'
import { CompositeDisposable, Disposable } from './index.js'

describe('Disposable', () => {
  it('runs its action on the first dispose only', () => {
    const action = vi.fn()
    const disposable = new Disposable(action)
    expect(disposable.disposed).toBe(false)
    disposable.dispose()
    disposable.dispose()
    expect(action).toHaveBeenCalledTimes(1)
    expect(disposable.disposed).toBe(true)
  })

  it('works without an action', () => {
    const disposable = new Disposable()
    disposable.dispose()
    expect(disposable.disposed).toBe(true)
  })

  it('is marked disposed before its action runs, so a throwing action is not retried', () => {
    let seenDisposed: boolean | undefined
    const disposable: Disposable = new Disposable(() => {
      seenDisposed = disposable.disposed
      throw new Error('boom')
    })
    expect(() => disposable.dispose()).toThrow('boom')
    expect(seenDisposed).toBe(true)
    expect(() => disposable.dispose()).not.toThrow()
  })

  it('rejects an action that is not a function', () => {
    expect(() => new Disposable(42 as unknown as () => void)).toThrow(TypeError)
  })

  it('isDisposable recognises anything with a dispose method', () => {
    expect(Disposable.isDisposable(new Disposable())).toBe(true)
    expect(Disposable.isDisposable(new CompositeDisposable())).toBe(true)
    expect(Disposable.isDisposable({ dispose() {} })).toBe(true)
    expect(Disposable.isDisposable(Object.assign(() => {}, { dispose() {} }))).toBe(true)
    expect(Disposable.isDisposable({ dispose: true })).toBe(false)
    expect(Disposable.isDisposable({})).toBe(false)
    expect(Disposable.isDisposable(null)).toBe(false)
    expect(Disposable.isDisposable(undefined)).toBe(false)
    expect(Disposable.isDisposable('dispose')).toBe(false)
  })
})
