/// <reference lib="dom" />
/**
 * The editor pane: `@tandem/view`'s DOM view of a TextEditor, filling its element. This is the
 * one module of the app that knows the view.
 */
import type { TextEditor } from '@tandem/editor'
import { type EditorTheme, EditorView } from '@tandem/view'

/** A mounted editor view. */
export interface EditorPane {
  /** Gives the editor the keyboard focus. */
  focus(): void
  /** Shows the editor's light or dark theme, or follows the system (`auto`). */
  setTheme(theme: EditorTheme): void
  /** Removes the view from the page. */
  destroy(): void
}

/**
 * Shows `editor` in `element`; `label` is what screen readers call it.
 *
 * @example const pane = mountEditor(editor, document.querySelector('#editor')!, 'Document notes')
 */
export const mountEditor = (
  editor: TextEditor,
  element: HTMLElement,
  label: string,
  theme: EditorTheme = 'auto',
): EditorPane => {
  const view = new EditorView(editor, element, { label, theme })
  return {
    focus: () => view.focus(),
    setTheme: (next) => view.setTheme(next),
    destroy: () => view.destroy(),
  }
}
