/**
 * A person typing into a Y.Text at a human pace, from a seed: mostly letters at a caret that
 * moves as they type, backspaces, now and then a deletion ahead or a jump elsewhere. Soak tests
 * run one per client, on and off line alike, as a person goes on typing while the server is
 * away.
 */
import type * as Y from 'yjs'
import type { Random } from '../../../../testing/random.js'

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz     ']

/** How fast a typist goes: the pause before each edit is drawn between these bounds. */
export interface Pace {
  readonly minPauseMs: number
  readonly maxPauseMs: number
}

/**
 * Types into `text` from `start()` until `stop()`, each edit in a transaction of its own with
 * the typist as origin, and counts what it typed.
 *
 * @example const typist = new Typist(client.text, new Random(7), { minPauseMs: 100, maxPauseMs: 500 }); typist.start()
 */
export class Typist {
  /** Characters inserted so far (UTF-16 units). */
  typed = 0
  /** Characters deleted so far. */
  deleted = 0
  /** Where the next letter goes; clipped to the text, which others change too. */
  #caret = 0
  #timer: NodeJS.Timeout | null = null

  constructor(
    readonly text: Y.Text,
    private readonly random: Random,
    private readonly pace: Pace,
  ) {}

  /** Starts typing; does nothing if it already types. */
  start(): void {
    if (this.#timer !== null) return
    const next = () => {
      this.#timer = setTimeout(
        () => {
          this.edit()
          next()
        },
        this.random.int(this.pace.minPauseMs, this.pace.maxPauseMs),
      )
    }
    next()
  }

  /** Stops typing; the edit under way, if any, is already done (edits are synchronous). */
  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
  }

  /** One edit, as a person makes them: mostly a letter, sometimes a deletion or a jump. */
  edit(): void {
    const { text, random } = this
    const doc = text.doc
    if (doc === null) throw new Error('the text of a typist must be in a document')
    const length = text.length
    this.#caret = Math.min(this.#caret, length)
    const roll = random.next()
    doc.transact(() => {
      if (roll < 0.08 || length === 0) {
        // A jump: the caret goes elsewhere, and typing resumes there.
        this.#caret = random.int(0, length)
        this.insert(random.string(random.int(1, 4), LETTERS))
      } else if (roll < 0.2 && this.#caret > 0) {
        const count = Math.min(random.int(1, 3), this.#caret)
        this.#caret -= count
        text.delete(this.#caret, count)
        this.deleted += count
      } else if (roll < 0.25 && this.#caret < length) {
        const count = Math.min(random.int(1, 5), length - this.#caret)
        text.delete(this.#caret, count)
        this.deleted += count
      } else {
        this.insert(random.pick(LETTERS))
      }
    }, this)
  }

  private insert(chars: string): void {
    this.text.insert(this.#caret, chars)
    this.#caret += chars.length
    this.typed += chars.length
  }
}
