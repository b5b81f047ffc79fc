/**
 * Anything with a `dispose()` method, e.g. a `Disposable` or a `CompositeDisposable`.
 *
 * @example const d: DisposableLike = { dispose: () => clearInterval(timer) }
 */
export interface DisposableLike {
  /** Releases the resource; calling it again does nothing. */
  dispose(): void
}

/**
 * A handle on a resource (a subscription, a timer, ...) that runs its disposal action the
 * first time `dispose()` is called and never again.
 *
 * @example const sub = new Disposable(() => window.removeEventListener('resize', onResize))
 */
export class Disposable implements DisposableLike {
  #action: (() => void) | undefined
  #disposed = false

  /**
   * Whether `value` has a `dispose` method, so it can be added to a `CompositeDisposable`.
   *
   * @example Disposable.isDisposable({ dispose() {} }) // => true
   */
  static isDisposable(value: unknown): value is DisposableLike {
    return (
      (typeof value === 'object' || typeof value === 'function') &&
      value !== null &&
      typeof (value as { dispose?: unknown }).dispose === 'function'
    )
  }

  /**
   * Wraps `disposalAction`, which `dispose()` will call at most once.
   *
   * @example new Disposable(() => console.log('released'))
   */
  constructor(disposalAction?: () => void) {
    if (disposalAction !== undefined && typeof disposalAction !== 'function') {
      throw new TypeError('disposalAction must be a function or undefined')
    }
    this.#action = disposalAction
  }

  /** Whether `dispose()` has been called. @example new Disposable().disposed // => false */
  get disposed(): boolean {
    return this.#disposed
  }

  /**
   * Runs the disposal action the first time; later calls do nothing. The action is marked
   * done before it runs, so an action that throws is not retried.
   *
   * @example sub.dispose(); sub.dispose() // the action ran once
   */
  dispose(): void {
    if (this.#disposed) return
    this.#disposed = true
    const action = this.#action
    // Drop the closure so whatever it captured can be collected.
    this.#action = undefined
    action?.()
  }
}
