/**
 * Key bindings as data: keystrokes in Atom's notation (`ctrl-shift-left`) mapped to command
 * names (`editor:select-to-beginning-of-word`). `ATOM_KEYMAP` holds Atom's default bindings
 * for text editors on Linux and Windows (its `base` and `linux` keymaps), for the commands
 * Tandem's editor implements.
 */

/** Keystroke -> command name; `null` unbinds a default. */
export type Keymap = Readonly<Record<string, string | null>>

/**
 * Atom's default text-editor bindings (Linux/Windows), and keys for folding so that nothing
 * needs the mouse. Multi-stroke bindings (`ctrl-k ctrl-u`) are not included.
 *
 * @example ATOM_KEYMAP['ctrl-shift-k'] // => 'editor:delete-line'
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
  escape: 'editor:consolidate-selections',
  // Editing
  enter: 'editor:newline',
  'shift-enter': 'editor:newline',
  'ctrl-enter': 'editor:newline-below',
  backspace: 'core:backspace',
  'shift-backspace': 'core:backspace',
  delete: 'core:delete',
  'ctrl-backspace': 'editor:delete-to-beginning-of-word',
  'ctrl-delete': 'editor:delete-to-end-of-word',
  'alt-backspace': 'editor:delete-to-beginning-of-subword',
  'alt-delete': 'editor:delete-to-end-of-subword',
  'ctrl-shift-backspace': 'editor:delete-to-beginning-of-line',
  'ctrl-shift-delete': 'editor:delete-to-end-of-line',
  'ctrl-shift-k': 'editor:delete-line',
  'ctrl-j': 'editor:join-lines',
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
  // Folding, so that a fold the mouse opens with a click opens from the keyboard too.
  'ctrl-alt-f': 'editor:fold-selection',
  'ctrl-alt-}': 'editor:unfold-all',
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
