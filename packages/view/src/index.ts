/**
 * @tandem/view: a Tandem TextEditor in the DOM. Screen rows from the display layer (folds,
 * soft wrap following the element's width), virtual scrolling, a gutter with line numbers,
 * local carets and selections, other peers' carets with their names and colors and their
 * selections (the decorations `@tandem/collab` adds), and input with Atom's key bindings:
 * typing, input methods, the clipboard and the mouse, chords (`ctrl-k ctrl-u`), a find bar, a
 * go-to-line box, select-next, bracket matching and zoom. Rows are drawn in the language's syntax
 * colours (Atom's `syntax--` classes) with a light or a dark theme.
 *
 * @example
 * import { TextEditor } from '@tandem/editor'
 * import { EditorView } from '@tandem/view'
 * const view = new EditorView(new TextEditor({ text: 'hello' }), document.getElementById('editor')!)
 *
 * @module @tandem/view
 */
export type {
  AttributionOptions,
  AttributionRun,
  AttributionSource,
} from './attribution.js'
export { readTandemMetadata, TANDEM_CLIPBOARD_TYPE } from './clipboard.js'
export { type Command, type CommandContext, EDITOR_COMMANDS } from './commands.js'
export { classNameForScopes } from './highlight.js'
export {
  ATOM_KEYMAP,
  buildKeymap,
  CHORD_TIMEOUT,
  type ChordResolution,
  ChordResolver,
  type Keymap,
  type KeystrokeEvent,
  keystrokeForEvent,
  readableKeystrokes,
} from './keymap.js'
export type { TextMetrics } from './measure.js'
export { colorForUser } from './peer-colors.js'
export {
  describeProposal,
  type ProposalOptions,
  type ProposalSource,
  type ViewProposal,
  type ViewProposalChange,
} from './proposals.js'
export { STYLE_ELEMENT_ID } from './styles.js'
export type { PixelPosition } from './text-geometry.js'
export { EDITOR_THEMES, type EditorTheme } from './theme.js'
export { EditorView, type VisibleRangeChangeEvent } from './view.js'
export type { EditorViewOptions } from './view-options.js'
export { MAX_FONT_SIZE, MIN_FONT_SIZE } from './zoom.js'
