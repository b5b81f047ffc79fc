import { describeValue } from './assert.js'
import { callEach } from './call-each.js'
import { Disposable, type DisposableLike } from './disposable.js'

/**
 * A group of disposables released together, typically every subscription an object made.
 * Once disposed it stays disposed: `add` then ignores what it is given (the caller keeps
 * ownership of it).
 *
 * @example const subs = new CompositeDisposable(buffer.onDidChange(f), buffer.onDidSave(g))
 */
export class CompositeDisposable implements DisposableLike {
  #disposables = new Set<DisposableLike>()
  #disposed = false

  /**
   * Starts a group holding `disposables`. Throws a `TypeError` if one has no `dispose`.
   *
   * @example new CompositeDisposable(a, b)
   */
  constructor(...disposables: DisposableLike[]) {
    this.add(...disposables)
  }

  /** Whether `dispose()` has been called. @example new CompositeDisposable().disposed // => false */
  get disposed(): boolean {
    return this.#disposed
  }

  /**
   * Disposes every member once, in the order they were added, and forgets them. Every member
   * is disposed even if some throw; the first error is rethrown afterwards. Later calls do
   * nothing.
   *
   * @example subs.dispose()
   */
  dispose(): void {
    if (this.#disposed) return
    this.#disposed = true
    const members = this.#disposables
    this.#disposables = new Set()
    callEach(members, (member) => member.dispose())
  }

  /**
   * Adds members to dispose with the group. Throws a `TypeError` (adding none of them) if
   * one has no `dispose` method; ignored once the group is disposed.
   *
   * @example subs.add(editor.onDidChange(f), editor.onDidSave(g))
   */
  add(...disposables: DisposableLike[]): void {
    disposables.forEach((disposable, index) => {
      if (!Disposable.isDisposable(disposable)) {
        throw new TypeError(
          `disposables[${index}] must have a dispose() method, got ${describeValue(disposable)}`,
        )
      }
    })
    if (this.#disposed) return
    for (const disposable of disposables) this.#disposables.add(disposable)
  }

  /**
   * Takes `disposable` out of the group without disposing it.
   *
   * @example subs.remove(sub); sub.dispose() // the caller now owns it
   */
  remove(disposable: DisposableLike): void {
    this.#disposables.delete(disposable)
  }

  /** Alias of `remove`, the name `Set` uses. @example subs.delete(sub) */
  delete(disposable: DisposableLike): void {
    this.remove(disposable)
  }

  /**
   * Forgets every member without disposing it; the group stays usable.
   *
   * @example subs.clear()
   */
  clear(): void {
    this.#disposables.clear()
  }
}
