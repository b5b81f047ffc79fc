/**
 * Calls `fn` on every item even when some calls throw, then rethrows the first error.
 * Package-internal: it gives the emitter and the composite disposable one failure policy,
 * so one broken listener or resource cannot starve the others.
 *
 * @example callEach(handlers, (handler) => handler(value))
 */
export function callEach<T>(items: Iterable<T>, fn: (item: T) => void): void {
  let failed = false
  let firstError: unknown
  for (const item of items) {
    try {
      fn(item)
    } catch (error) {
      // Later errors are dropped: the first one is usually the cause of the rest.
      if (!failed) {
        failed = true
        firstError = error
      }
    }
  }
  if (failed) throw firstError
}
