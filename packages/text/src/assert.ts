/**
 * Argument checks shared by the value types. Not exported from the package: callers see only
 * the `TypeError`s they throw, each naming the argument so a bad call site is easy to find.
 */

const MAX_DESCRIPTION_LENGTH = 60

/**
 * A short, never-throwing rendering of any value for error messages.
 *
 * @example describeValue('3') // => '"3"'
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return truncate(JSON.stringify(value))
    case 'bigint':
      return `${value}n`
    case 'symbol':
      return value.toString()
    case 'function':
      return 'a function'
    case 'object':
      return value === null ? 'null' : describeObject(value)
    default:
      return String(value)
  }
}

/**
 * Throws a `TypeError` naming `name` unless `value` is a number other than NaN.
 * Infinity is allowed: `Point.INFINITY` is a legitimate "end of everything" position.
 *
 * @example assertNumber(row, 'row') // throws "row must be a number, got NaN" for NaN
 */
export function assertNumber(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new TypeError(`${name} must be a number, got ${describeValue(value)}`)
  }
}

function describeObject(value: object): string {
  // JSON can throw (cycles, BigInt) and can be huge; the message only needs a hint.
  try {
    const json = JSON.stringify(value)
    if (json !== undefined) return truncate(json)
  } catch {
    // Fall through to the type tag.
  }
  return Object.prototype.toString.call(value)
}

function truncate(text: string): string {
  return text.length > MAX_DESCRIPTION_LENGTH
    ? `${text.slice(0, MAX_DESCRIPTION_LENGTH - 3)}...`
    : text
}
