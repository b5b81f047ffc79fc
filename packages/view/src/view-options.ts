/**
 * The options of `new EditorView`, and their check: every option is read once, with its
 * default, and a bad one is an error that names it before the view touches the page.
 */
import type { Keymap } from './keymap.js'
import { checkDelay, DEFAULT_IDLE_DELAY, DEFAULT_LABEL_FADE_DELAY } from './peer-activity.js'
import { assertTheme, type EditorTheme } from './theme.js'

/** Options of `new EditorView`. */
export interface EditorViewOptions {
  /** Show the gutter with line numbers (default true). */
  lineNumbers?: boolean
  /** Turn the editor's soft wrap on or off; it then follows the element's width. */
  softWrapped?: boolean
  /** Blink the carets while focused (default true). */
  cursorBlink?: boolean
  /** Rows rendered beyond each edge of the visible ones (default 4). */
  overscanRows?: number
  /**
   * Key bindings over Atom's defaults (`null` unbinds), e.g. `{ 'ctrl-d': 'editor:delete-line' }`;
   * a chord's keystrokes are separated by spaces (`'ctrl-k ctrl-t': 'editor:transpose'`).
   */
  keymap?: Keymap
  /**
   * Close brackets and quotes as they are typed, and type over the closing one (default
   * true). The bracket pair at the cursor is highlighted either way.
   */
  autoCloseBrackets?: boolean
  /** The colours: `light`, `dark`, or `auto` (the default) to follow the system's preference. */
  theme?: EditorTheme
  /** The editor's accessible name, which screen readers say on focus (default `'Editor'`). */
  label?: string
  /**
   * How long a remote peer's name label stays up after the peer moved or typed, in
   * milliseconds (default 2000); hovering over its caret shows it again.
   */
  labelFadeDelay?: number
  /**
   * How long a remote peer goes without moving or typing before its caret dims, in
   * milliseconds (default 30000).
   */
  idleDelay?: number
}

/** The options a view checks before it starts, with their defaults filled in. */
export interface CheckedViewOptions {
  readonly overscan: number
  readonly label: string
  readonly delays: { readonly labelFadeDelay: number; readonly idleDelay: number }
  readonly theme: EditorTheme
}

/**
 * Checks the options that can be wrong in value: a RangeError or TypeError names the first
 * bad one (overscan, label, delays, theme, in that order).
 *
 * @example checkViewOptions({ overscanRows: 2 }).overscan // => 2
 */
export const checkViewOptions = (options: EditorViewOptions): CheckedViewOptions => {
  const overscan = options.overscanRows ?? 4
  if (!Number.isInteger(overscan) || overscan < 0) {
    throw new RangeError(`overscanRows must be a whole number >= 0, got ${overscan}`)
  }
  const label = options.label ?? 'Editor'
  if (typeof label !== 'string' || label.trim() === '') {
    throw new TypeError(`label must be a non-empty string, got ${String(label)}`)
  }
  const delays = {
    labelFadeDelay: checkDelay('labelFadeDelay', options.labelFadeDelay, DEFAULT_LABEL_FADE_DELAY),
    idleDelay: checkDelay('idleDelay', options.idleDelay, DEFAULT_IDLE_DELAY),
  }
  const theme = options.theme ?? 'auto'
  assertTheme(theme)
  return { overscan, label, delays, theme }
}
