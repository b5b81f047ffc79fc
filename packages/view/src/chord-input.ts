/// <reference lib="dom" />
/**
 * Keystrokes through the keymap's chords, in a view: `ChordResolver` decides, this module
 * keeps the time. While a chord waits for its next key, a hint at the editor's bottom edge
 * says so (and the view's live region says it for screen readers); when the wait runs out, a
 * binding of the keys typed so far runs.
 */
import { ChordResolver, readableKeystrokes } from './keymap.js'

/** What the chords need from their view. */
export interface ChordHost {
  /** Runs a command whose chord's wait ran out; false when it did not apply. */
  runCommand(name: string): boolean
  /** Says `text` in the view's live region. */
  say(text: string): void
}

/**
 * The chord state of one view and its hint element (added to `parent`).
 *
 * @example const chords = new ChordInput(keymap, element, host); chords.press('ctrl-k')
 */
export class ChordInput {
  private readonly resolver: ChordResolver
  private readonly hint: HTMLElement
  private timer: ReturnType<typeof setTimeout> | null = null

  constructor(
    keymap: ReadonlyMap<string, string>,
    private readonly parent: HTMLElement,
    private readonly host: ChordHost,
  ) {
    this.resolver = new ChordResolver(keymap)
    this.hint = parent.ownerDocument.createElement('div')
    this.hint.className = 'tandem-panel tandem-chord-hint'
    // Seen here; said in the view's live region (one per view).
    this.hint.setAttribute('aria-hidden', 'true')
    parent.append(this.hint)
  }

  /**
   * What a keystroke comes to: the command to run, `wait` when it began or cancelled a chord
   * (the key goes no further), or undefined when nothing is bound.
   */
  press(keystroke: string): string | 'wait' | undefined {
    const resolution = this.resolver.press(keystroke, performance.now())
    this.show()
    if (resolution.kind === 'none') return undefined
    return resolution.kind === 'command' ? resolution.command : 'wait'
  }

  /** The keystrokes of a chord waiting for its next one, or null. */
  getPending(): string | null {
    return this.resolver.getPending()
  }

  /** Drops a pending chord (the editor lost the focus). */
  reset(): void {
    if (this.resolver.getPending() === null && this.timer === null) return
    this.resolver.reset()
    this.show()
  }

  /** Stops the timer and removes the hint. */
  dispose(): void {
    this.reset()
    this.hint.remove()
  }

  /** Shows the pending chord in the hint, and ends it when its time runs out. */
  private show(): void {
    const pending = this.resolver.getPending()
    const text =
      pending === null
        ? ''
        : `${readableKeystrokes(pending)} was pressed; waiting for the next key…`
    if (this.hint.textContent !== text) {
      this.hint.textContent = text
      if (text !== '') this.host.say(text)
    }
    this.parent.classList.toggle('has-pending-chord', pending !== null)
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    const deadline = this.resolver.getDeadline()
    if (deadline === null) return
    this.timer = setTimeout(
      () => {
        this.timer = null
        const command = this.resolver.expire(performance.now())?.command
        this.show()
        if (command !== undefined) this.host.runCommand(command)
      },
      Math.max(0, deadline - performance.now()) + 1,
    )
  }
}
