/**
 * The fewest changes that turn one text into another, by characters: the common start and
 * end are kept, and the middle is compared with Myers' O(ND) algorithm, so a restore leaves
 * every character both texts share where it is (with everyone's carets on it). Past a bound
 * on the work (texts that differ nearly everywhere), the middle is replaced whole.
 */
import type { TextChangeJSON } from '@tandem/protocol'

/** Most differences compared before the middle is replaced whole. */
const MAX_EDIT_DISTANCE = 1_000

/**
 * Changes from `before` to `after`, in order, offsets in `before`; a surrogate pair is never
 * split.
 *
 * @example textChanges('hello world', 'hello there') // => [{ from: 6, to: 11, insert: 'there' }]
 */
export const textChanges = (before: string, after: string): TextChangeJSON[] => {
  let start = 0
  const shorter = Math.min(before.length, after.length)
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++
  let end = 0
  while (
    end < shorter - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  ) {
    end++
  }
  // Never cut a surrogate pair in two.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--
  if (end > 0 && isLowSurrogate(before.charCodeAt(before.length - end))) end--
  const a = before.slice(start, before.length - end)
  const b = after.slice(start, after.length - end)
  if (a === '' && b === '') return []
  const middle = myers(a, b) ?? [{ from: 0, to: a.length, insert: b }]
  return wholeCharacters(
    middle.map(({ from, to, insert }) => ({ from: from + start, to: to + start, insert })),
    before,
  )
}

/**
 * Widens changes that begin or end inside a surrogate pair of `before` to take the whole
 * pair (what they kept of it goes into their insertion), joining changes that then meet:
 * a lone surrogate written into a Y.Text would reach other peers as U+FFFD.
 */
const wholeCharacters = (changes: TextChangeJSON[], before: string): TextChangeJSON[] => {
  const widened: TextChangeJSON[] = []
  for (let { from, to, insert } of changes) {
    if (
      from > 0 &&
      isHighSurrogate(before.charCodeAt(from - 1)) &&
      isLowSurrogate(before.charCodeAt(from))
    ) {
      insert = before[from - 1]! + insert
      from--
    }
    if (
      to > 0 &&
      to < before.length &&
      isHighSurrogate(before.charCodeAt(to - 1)) &&
      isLowSurrogate(before.charCodeAt(to))
    ) {
      insert += before[to]!
      to++
    }
    const last = widened[widened.length - 1]
    if (last !== undefined && last.to >= from) {
      widened[widened.length - 1] = {
        from: last.from,
        to,
        insert: last.insert + before.slice(last.to, from) + insert,
      }
    } else {
      widened.push({ from, to, insert })
    }
  }
  return widened
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/** The changes from `a` to `b` by Myers' algorithm, or null past `MAX_EDIT_DISTANCE`. */
const myers = (a: string, b: string): TextChangeJSON[] | null => {
  const n = a.length
  const m = b.length
  const max = Math.min(n + m, MAX_EDIT_DISTANCE)
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  const trace: Int32Array[] = []
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice())
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a.charCodeAt(x) === b.charCodeAt(y)) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) return backtrack(trace, offset, a, b, d, k)
    }
  }
  return null
}

/** Walks the saved rows back from the end, collecting deletions and insertions as changes. */
const backtrack = (
  trace: readonly Int32Array[],
  offset: number,
  a: string,
  b: string,
  last: number,
  lastK: number,
): TextChangeJSON[] => {
  const steps: { kind: 'delete' | 'insert'; x: number; y: number }[] = []
  let x = a.length
  let y = b.length
  let k = lastK
  for (let d = last; d > 0; d--) {
    const v = trace[d]!
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
    const previousK = down ? k + 1 : k - 1
    const previousX = v[offset + previousK]!
    const previousY = previousX - previousK
    while (x > previousX + (down ? 0 : 1) && y > previousY + (down ? 1 : 0)) {
      x--
      y--
    }
    if (down) steps.push({ kind: 'insert', x: previousX, y: previousY })
    else steps.push({ kind: 'delete', x: previousX, y: previousY })
    x = previousX
    y = previousY
    k = previousK
  }
  steps.reverse()
  const changes: TextChangeJSON[] = []
  for (const step of steps) {
    const last = changes[changes.length - 1]
    if (step.kind === 'delete') {
      if (last !== undefined && last.to === step.x) {
        changes[changes.length - 1] = { ...last, to: step.x + 1 }
      } else {
        changes.push({ from: step.x, to: step.x + 1, insert: '' })
      }
    } else {
      const char = b[step.y]!
      if (last !== undefined && last.to === step.x) {
        changes[changes.length - 1] = { ...last, insert: last.insert + char }
      } else {
        changes.push({ from: step.x, to: step.x, insert: char })
      }
    }
  }
  return changes
}
