/**
 * What a browser sample's `import assert from 'node:assert/strict'` gets in the page: the
 * few assertions the guides use, failing with an `AssertionError` as Node's do.
 */

/** A failed assertion. */
export class AssertionError extends Error {
  override readonly name = 'AssertionError'
}

const show = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

const deepEqualValues = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  const keysA = Object.keys(a)
  const keysB = Object.keys(b)
  if (keysA.length !== keysB.length) return false
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) &&
      deepEqualValues((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  )
}

/** Fails unless `value` is truthy. */
export function ok(value: unknown, message?: string): asserts value {
  if (!value) throw new AssertionError(message ?? `expected a truthy value, got ${show(value)}`)
}

/** Fails unless `actual` is `expected` (`Object.is`). */
export const equal = (actual: unknown, expected: unknown, message?: string): void => {
  if (!Object.is(actual, expected)) {
    throw new AssertionError(message ?? `expected ${show(expected)}, got ${show(actual)}`)
  }
}

/** Fails when `actual` is `expected`. */
export const notEqual = (actual: unknown, expected: unknown, message?: string): void => {
  if (Object.is(actual, expected)) {
    throw new AssertionError(message ?? `expected anything but ${show(expected)}`)
  }
}

/** Fails unless `actual` and `expected` have the same structure and values. */
export const deepEqual = (actual: unknown, expected: unknown, message?: string): void => {
  if (!deepEqualValues(actual, expected)) {
    throw new AssertionError(message ?? `expected ${show(expected)}, got ${show(actual)}`)
  }
}

/** Fails unless `text` matches `pattern`. */
export const match = (text: string, pattern: RegExp, message?: string): void => {
  if (!pattern.test(text)) {
    throw new AssertionError(message ?? `expected ${show(text)} to match ${pattern}`)
  }
}

const assert = Object.assign(ok, {
  ok,
  equal,
  notEqual,
  deepEqual,
  strictEqual: equal,
  deepStrictEqual: deepEqual,
  match,
  AssertionError,
})
export default assert
