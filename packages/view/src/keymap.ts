/**
 * Key bindings as data: keystrokes in Atom's notation (`ctrl-shift-left`) mapped to command
 * names (`editor:select-to-beginning-of-word`); a binding of several keystrokes (a chord) has
 * them separated by spaces (`ctrl-k ctrl-u`). `ATOM_KEYMAP` holds Atom's default bindings for
 * text editors on Linux and Windows, for the commands Tandem implements; `ChordResolver`
 * follows keystrokes through chords as Atom's keymap manager does.
 */

/** Keystroke -> command name; `null` unbinds a default. */
export type Keymap = Readonly<Record<string, string | null>>

/**
 * Atom's default text-editor bindings on Linux and Windows (its `base` and `linux` keymaps and
 * the keymaps of its bundled find-and-replace, go-to-line, bracket-matcher and autoflow
 * packages), multi-stroke chords (`ctrl-k ctrl-u`) included. A few keys are
 * Tandem's own, where Atom has none and a user looks for one: `ctrl-h` (find and replace, as
 * in Sublime Text and VS Code), `alt-z` (soft wrap, as in VS Code), `alt-q` (reflow, as in
 * Sublime Text and Emacs), `ctrl-alt-f` (fold the selection).
 *
 * @example ATOM_KEYMAP['ctrl-k ctrl-u'] // => 'editor:upper-case'
 */
export const ATOM_KEYMAP: Keymap = Object.freeze({
  // Moving
  up: 'core:move-up',
  down: 'core:move-down',
  left: 'core:move-left',
  right: 'core:move-right',
  pageup: 'core:page-up',
  pagedown: 'core:page-down',
  home: 'editor:move-to-first-character-of-line',
  end: 'editor:move-to-end-of-screen-line',
  'ctrl-home': 'core:move-to-top',
  'ctrl-end': 'core:move-to-bottom',
  'ctrl-left': 'editor:move-to-beginning-of-word',
  'ctrl-right': 'editor:move-to-end-of-word',
  'alt-left': 'editor:move-to-previous-subword-boundary',
  'alt-right': 'editor:move-to-next-subword-boundary',
  'ctrl-m': 'bracket-matcher:go-to-matching-bracket',
  'ctrl-g': 'go-to-line:toggle',
  'ctrl-<': 'editor:scroll-to-cursor',
  // Selecting
  'shift-up': 'core:select-up',
  'shift-down': 'core:select-down',
  'shift-left': 'core:select-left',
  'shift-right': 'core:select-right',
  'shift-pageup': 'core:select-page-up',
  'shift-pagedown': 'core:select-page-down',
  'shift-home': 'editor:select-to-first-character-of-line',
  'shift-end': 'editor:select-to-end-of-line',
  'ctrl-shift-home': 'core:select-to-top',
  'ctrl-shift-end': 'core:select-to-bottom',
  'ctrl-shift-left': 'editor:select-to-beginning-of-word',
  'ctrl-shift-right': 'editor:select-to-end-of-word',
  'alt-shift-left': 'editor:select-to-previous-subword-boundary',
  'alt-shift-right': 'editor:select-to-next-subword-boundary',
  'ctrl-a': 'core:select-all',
  'ctrl-l': 'editor:select-line',
  'alt-shift-up': 'editor:add-selection-above',
  'alt-shift-down': 'editor:add-selection-below',
  'ctrl-alt-,': 'bracket-matcher:select-inside-brackets',
  escape: 'editor:consolidate-selections',
  // Selecting occurrences (find-and-replace's select-next)
  'ctrl-d': 'find-and-replace:select-next',
  'ctrl-u': 'find-and-replace:select-undo',
  'ctrl-k ctrl-d': 'find-and-replace:select-skip',
  'alt-f3': 'find-and-replace:select-all',
  // Finding
  'ctrl-f': 'find-and-replace:show',
  'ctrl-h': 'find-and-replace:show-replace',
  f3: 'find-and-replace:find-next',
  'shift-f3': 'find-and-replace:find-previous',
  'ctrl-f3': 'find-and-replace:find-next-selected',
  'ctrl-shift-f3': 'find-and-replace:find-previous-selected',
  'ctrl-e': 'find-and-replace:use-selection-as-find-pattern',
  'ctrl-shift-e': 'find-and-replace:use-selection-as-replace-pattern',
  // Editing
  enter: 'editor:newline',
  'shift-enter': 'editor:newline',
  'ctrl-enter': 'editor:newline-below',
  'ctrl-shift-enter': 'editor:newline-above',
  backspace: 'core:backspace',
  'shift-backspace': 'core:backspace',
  delete: 'core:delete',
  'ctrl-backspace': 'editor:delete-to-beginning-of-word',
  'ctrl-delete': 'editor:delete-to-end-of-word',
  'alt-backspace': 'editor:delete-to-beginning-of-subword',
  'alt-delete': 'editor:delete-to-end-of-subword',
  'ctrl-shift-backspace': 'editor:delete-to-beginning-of-line',
  'ctrl-shift-delete': 'editor:delete-to-end-of-line',
  'ctrl-alt-backspace': 'bracket-matcher:remove-matching-brackets',
  'ctrl-shift-k': 'editor:delete-line',
  'ctrl-j': 'editor:join-lines',
  'ctrl-up': 'editor:move-line-up',
  'ctrl-down': 'editor:move-line-down',
  'ctrl-shift-d': 'editor:duplicate-lines',
  'ctrl-shift-q': 'autoflow:reflow-selection',
  'alt-q': 'autoflow:reflow-selection',
  'ctrl-k ctrl-u': 'editor:upper-case',
  'ctrl-k ctrl-l': 'editor:lower-case',
  tab: 'editor:indent',
  'shift-tab': 'editor:outdent-selected-rows',
  'ctrl-]': 'editor:indent-selected-rows',
  'ctrl-[': 'editor:outdent-selected-rows',
  'ctrl-/': 'editor:toggle-line-comments',
  'ctrl-z': 'core:undo',
  'ctrl-y': 'core:redo',
  'ctrl-shift-z': 'core:redo',
  // The clipboard: the browser's copy, cut and paste events carry these out (see clipboard.ts).
  'ctrl-c': 'core:copy',
  'ctrl-x': 'core:cut',
  'ctrl-v': 'core:paste',
  'ctrl-insert': 'core:copy',
  'shift-insert': 'core:paste',
  'shift-delete': 'core:cut',
  // Folding
  'ctrl-alt-[': 'editor:fold-current-row',
  'ctrl-alt-]': 'editor:unfold-current-row',
  'ctrl-alt-{': 'editor:fold-all',
  'ctrl-alt-}': 'editor:unfold-all',
  'ctrl-alt-f': 'editor:fold-selection',
  'ctrl-k ctrl-0': 'editor:unfold-all',
  'ctrl-k ctrl-1': 'editor:fold-at-indent-level-1',
  'ctrl-k ctrl-2': 'editor:fold-at-indent-level-2',
  'ctrl-k ctrl-3': 'editor:fold-at-indent-level-3',
  'ctrl-k ctrl-4': 'editor:fold-at-indent-level-4',
  'ctrl-k ctrl-5': 'editor:fold-at-indent-level-5',
  'ctrl-k ctrl-6': 'editor:fold-at-indent-level-6',
  'ctrl-k ctrl-7': 'editor:fold-at-indent-level-7',
  'ctrl-k ctrl-8': 'editor:fold-at-indent-level-8',
  'ctrl-k ctrl-9': 'editor:fold-at-indent-level-9',
  // The window: soft wrap and the font size
  'alt-z': 'editor:toggle-soft-wrap',
  'ctrl-=': 'window:increase-font-size',
  'ctrl-+': 'window:increase-font-size',
  'ctrl--': 'window:decrease-font-size',
  'ctrl-_': 'window:decrease-font-size',
  'ctrl-0': 'window:reset-font-size',
})

const KEY_NAMES: Readonly<Record<string, string>> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
  PageUp: 'pageup',
  PageDown: 'pagedown',
  Home: 'home',
  End: 'end',
  Backspace: 'backspace',
  Delete: 'delete',
  Enter: 'enter',
  Tab: 'tab',
  Escape: 'escape',
  Insert: 'insert',
  ' ': 'space',
}

/** The parts of a keyboard event a keystroke is made of. */
export interface KeystrokeEvent {
  /** `KeyboardEvent.key`: the character typed, or the key's name (`ArrowLeft`, `Enter`). */
  readonly key: string
  /** Whether Control was held. */
  readonly ctrlKey: boolean
  /** Whether Alt (Option) was held. */
  readonly altKey: boolean
  /** Whether Shift was held. */
  readonly shiftKey: boolean
  /** Whether Meta (Command, the Windows key) was held. */
  readonly metaKey: boolean
}

/**
 * The keystroke of a keydown in Atom's notation: modifiers in the order `ctrl-alt-shift-cmd-`,
 * then the key, lowercase. `shift` is kept for letters and named keys; for other characters
 * the key itself is already the shifted one (`?`, `{`), as in Atom. Null for a lone modifier.
 *
 * @example keystrokeForEvent({ key: 'Z', ctrlKey: true, shiftKey: true, altKey: false, metaKey: false }) // => 'ctrl-shift-z'
 */
export const keystrokeForEvent = (event: KeystrokeEvent): string | null => {
  const { key } = event
  if (key === 'Control' || key === 'Alt' || key === 'Shift' || key === 'Meta') return null
  if (key === 'Dead' || key === 'Unidentified' || key === 'Process') return null
  const named = KEY_NAMES[key]
  let name: string
  let shift = event.shiftKey
  if (named !== undefined) name = named
  else if (key.length === 1 || [...key].length === 1) {
    const lower = key.toLowerCase()
    name = lower
    if (lower === key.toUpperCase()) shift = false
  } else name = key.toLowerCase()
  return (
    (event.ctrlKey ? 'ctrl-' : '') +
    (event.altKey ? 'alt-' : '') +
    (shift ? 'shift-' : '') +
    (event.metaKey ? 'cmd-' : '') +
    name
  )
}

/**
 * Atom's defaults with `overrides` on top (a `null` value unbinds).
 *
 * @example const keymap = buildKeymap({ 'ctrl-d': 'editor:delete-line', 'ctrl-l': null })
 */
export const buildKeymap = (overrides: Keymap = {}): Map<string, string> => {
  const keymap = new Map<string, string>()
  for (const [keystroke, command] of Object.entries({ ...ATOM_KEYMAP, ...overrides })) {
    if (command !== null) keymap.set(keystroke, command)
  }
  return keymap
}

/** How long a chord's first keystrokes wait for the next one, in milliseconds (Atom's wait). */
export const CHORD_TIMEOUT = 1000

/** What a keystroke comes to in a `ChordResolver`. */
export interface ChordResolution {
  /**
   * `command`: a binding is complete, run `command`; `pending`: the keystrokes so far begin a
   * chord, wait for the next one; `cancelled`: escape ended a pending chord, nothing runs and
   * the key goes no further; `none`: nothing is bound, the key goes on (to typing, or the
   * browser).
   */
  readonly kind: 'command' | 'pending' | 'cancelled' | 'none'
  /** The keystrokes this resolution is about: a whole binding, or a chord's so far. */
  readonly keystrokes: string
  /** The command to run (for `command` only). */
  readonly command?: string
}

/**
 * Resolves keystrokes against a keymap whose bindings may be several keystrokes long
 * (`ctrl-k ctrl-u`), as Atom's keymap manager does: a keystroke that begins a longer binding
 * waits for the next one, up to `timeout` ms. Escape cancels the wait; a keystroke that does
 * not continue any binding ends it and is then resolved on its own (so a letter typed after a
 * stray `ctrl-k` is still typed). When the wait times out, a binding of the keystrokes typed
 * so far runs (`expire`). Pure: time is passed in, and no timer is kept.
 *
 * @example
 * const chords = new ChordResolver(buildKeymap())
 * chords.press('ctrl-k', 0) // => { kind: 'pending', keystrokes: 'ctrl-k' }
 * chords.press('ctrl-u', 200) // => { kind: 'command', command: 'editor:upper-case', keystrokes: 'ctrl-k ctrl-u' }
 */
export class ChordResolver {
  /** Every proper prefix of a binding, as keystrokes joined by spaces. */
  private readonly prefixes = new Set<string>()
  private pending: string[] = []
  private pendingSince = 0

  constructor(
    private readonly keymap: ReadonlyMap<string, string>,
    /** How long the first keystrokes of a chord wait for the next, in milliseconds. */
    readonly timeout = CHORD_TIMEOUT,
  ) {
    if (!(timeout > 0)) throw new RangeError(`timeout must be a positive number, got ${timeout}`)
    for (const binding of keymap.keys()) {
      const strokes = binding.split(' ')
      for (let length = 1; length < strokes.length; length++) {
        this.prefixes.add(strokes.slice(0, length).join(' '))
      }
    }
  }

  /** The keystrokes of a chord waiting for its next one (`'ctrl-k'`), or null. */
  getPending(): string | null {
    return this.pending.length === 0 ? null : this.pending.join(' ')
  }

  /** When the pending chord times out (ms on the clock `press` was given), or null. */
  getDeadline(): number | null {
    return this.pending.length === 0 ? null : this.pendingSince + this.timeout
  }

  /**
   * Resolves `keystroke` (Atom's notation) pressed at time `now` (milliseconds on any steady
   * clock). A chord pending longer than the timeout is dropped first.
   */
  press(keystroke: string, now: number): ChordResolution {
    if (this.pending.length > 0 && now >= this.pendingSince + this.timeout) this.pending = []
    if (this.pending.length > 0) {
      const keystrokes = [...this.pending, keystroke].join(' ')
      if (keystroke === 'escape') {
        this.pending = []
        return { kind: 'cancelled', keystrokes }
      }
      const continued = this.resolve(keystrokes, now)
      if (continued !== null) return continued
      // Not a continuation: the chord ends, and the keystroke counts on its own.
      this.pending = []
    }
    return this.resolve(keystroke, now) ?? { kind: 'none', keystrokes: keystroke }
  }

  /**
   * Ends a pending chord whose time ran out at `now`: the binding of the keystrokes typed so
   * far, if they have one, else `none`. Null when no chord is pending or it has time left.
   */
  expire(now: number): ChordResolution | null {
    const keystrokes = this.getPending()
    if (keystrokes === null || now < this.pendingSince + this.timeout) return null
    this.pending = []
    const command = this.keymap.get(keystrokes)
    return command === undefined
      ? { kind: 'none', keystrokes }
      : { kind: 'command', command, keystrokes }
  }

  /** Drops a pending chord (the editor lost the focus). */
  reset(): void {
    this.pending = []
  }

  private resolve(keystrokes: string, now: number): ChordResolution | null {
    if (this.prefixes.has(keystrokes)) {
      if (this.pending.length === 0) this.pendingSince = now
      this.pending = keystrokes.split(' ')
      return { kind: 'pending', keystrokes }
    }
    const command = this.keymap.get(keystrokes)
    if (command === undefined) return null
    this.pending = []
    return { kind: 'command', command, keystrokes }
  }
}

/**
 * Keystrokes as people read them: `ctrl-shift-k` -> `Ctrl+Shift+K`, chords joined by spaces.
 *
 * @example readableKeystrokes('ctrl-k ctrl-u') // => 'Ctrl+K Ctrl+U'
 */
export const readableKeystrokes = (keystrokes: string): string =>
  keystrokes
    .split(' ')
    .map((stroke) => {
      const parts = stroke.endsWith('--')
        ? [...stroke.slice(0, -2).split('-'), '-']
        : stroke.split('-')
      return parts
        .filter((part) => part !== '')
        .map(
          (part) =>
            READABLE_KEYS[part] ??
            (part.length === 1 ? part.toUpperCase() : part[0]!.toUpperCase() + part.slice(1)),
        )
        .join('+')
    })
    .join(' ')

const READABLE_KEYS: Readonly<Record<string, string>> = {
  ctrl: 'Ctrl',
  alt: 'Alt',
  shift: 'Shift',
  cmd: 'Meta',
  pageup: 'PageUp',
  pagedown: 'PageDown',
}
