/**
 * What cursors, selections and editing commands work with: the text, the screen, the
 * language, a few settings and a way to ask for scrolling. They get this, never the editor, so
 * none of them can reach into another part of it.
 */
import type { TextBuffer } from '@tandem/buffer'
import type { DisplayLayer } from '@tandem/display'
import type { LanguageMode } from '@tandem/language'
import type { Point, Range } from '@tandem/text'
import type { Clipboard } from './clipboard.js'
import type { DisplayMarkerLayer } from './display-marker.js'

/** How a range asks to be scrolled into sight (see `AutoscrollRequest`). */
export interface ScrollOptions {
  /** Clip the range to the text first. */
  clip?: boolean
  /** The head is at the start: bring the start into sight first. */
  reversed?: boolean
  /** Center the head vertically instead of scrolling as little as possible. */
  center?: boolean
}

/** Options of every text-changing operation: `bypassReadOnly` edits a read-only editor. */
export interface ReadOnlyBypass {
  /** Change the text even when the editor is read-only (default false). */
  bypassReadOnly?: boolean
}

/**
 * The part of an editor that its cursors, selections and commands use. Settings are read
 * through functions because they change while the editor lives.
 */
export interface EditorContext {
  /** The text. */
  readonly buffer: TextBuffer
  /** Screen coordinates: folds, tabs and soft wrap. */
  readonly displayLayer: DisplayLayer
  /** The layer `markBufferRange` marks on. */
  readonly markers: DisplayMarkerLayer
  /** The clipboard of copy, cut and paste. */
  readonly clipboard: Clipboard
  /** The language mode now in use. */
  languageMode(): LanguageMode
  /** Whether indentation uses spaces. */
  softTabs(): boolean
  /** Columns per tab stop. */
  tabLength(): number
  /** The characters that end words at `position`. */
  nonWordCharacters(position: Point): string
  /** Whether new lines are indented automatically. */
  autoIndent(): boolean
  /** Whether pasted lines are re-indented to where they land. */
  autoIndentOnPaste(): boolean
  /** Milliseconds within which typing groups into one undo step. */
  undoGroupingInterval(): number
  /** Asks views to bring a screen range into sight. */
  scrollToScreenRange(range: Range, options?: ScrollOptions): void
  /**
   * Whether `operation` may change the text: not on a read-only editor without
   * `bypassReadOnly`, in which case the refused attempt is reported to the editor's listeners.
   */
  mayEdit(operation: string, options?: ReadOnlyBypass): boolean
}

const contexts = new WeakMap<object, EditorContext>()

/** Records `editor`'s context, for the package's helpers that work on an editor. */
export const registerContext = (editor: object, context: EditorContext): void => {
  contexts.set(editor, context)
}

/** The context of an editor made by this package (package internal: not exported). */
export const contextOf = (editor: object): EditorContext => {
  const context = contexts.get(editor)
  if (context === undefined) throw new TypeError('not an editor of this package')
  return context
}
