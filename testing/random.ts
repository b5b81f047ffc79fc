/**
 * A small seeded pseudo-random generator for property tests, so a failing run can be
 * repeated from the seed it prints.
 */
export class Random {
  private state: number

  constructor(readonly seed: number) {
    this.state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!
  }

  /** A string of `length` pieces drawn from `alphabet`. */
  string(length: number, alphabet: readonly string[]): string {
    let s = ''
    for (let i = 0; i < length; i++) s += this.pick(alphabet)
    return s
  }

  /** The array shuffled in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      ;[items[i], items[j]] = [items[j]!, items[i]!]
    }
    return items
  }
}

/** Seeds for a property test: `SEED=n` in the environment repeats one run. */
export const seeds = (count: number, base = 1): number[] => {
  const fixed = process.env.SEED
  if (fixed !== undefined && fixed !== '') return [Number(fixed)]
  return Array.from({ length: count }, (_, i) => base + i)
}
