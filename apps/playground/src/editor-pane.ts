/// <reference lib="dom" />
/**
 * The editor pane: `@tandem/view`'s DOM view of a TextEditor, filling its element. This is the
 * one module of the app that knows the view.
 */
import type { TextEditor } from '@tandem/editor'
import { EditorView } from '@tandem/view'

/** A mounted editor view. */
export interface EditorPane {
  /** Gives the editor the keyboard focus. */
  focus(): void
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
): EditorPane => {
  const view = new EditorView(editor, element, { label })
  return { focus: () => view.focus(), destroy: () => view.destroy() }
}
