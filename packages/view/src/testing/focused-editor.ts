/**
 * What the key tests compare: an editor's text and selections, in the page and in a
 * reference editor in Node, and a page opened with its first editor focused for typing.
 */
import type { TextEditor } from '@tandem/editor'
import type { Page } from 'playwright-core'
import { inPage } from './in-page.js'
import type { OpenOptions } from './view-page.js'

/** An editor's text, and each selection's range with ` reversed` when it is. */
export interface EditorState {
  readonly text: string
  readonly selections: readonly string[]
}

/**
 * The state of an editor in Node, to compare with `pageEditorState`.
 *
 * @example editorState(new TextEditor({ text: 'a' })) // => { text: 'a', selections: ['[(0, 0) - (0, 0)]'] }
 */
export const editorState = (editor: TextEditor): EditorState => ({
  text: editor.getText(),
  selections: editor
    .getSelections()
    .map((s) => `${s.getBufferRange().toString()}${s.isReversed() ? ' reversed' : ''}`),
})

/**
 * The state of the page's first editor, as `editorState` gives it (the mapping is written
 * again here because it runs in the page, sent as source).
 */
export const pageEditorState = (page: Page): Promise<EditorState> =>
  inPage(page, (vp) => ({
    text: vp.a.editor.getText(),
    selections: vp.a.editor
      .getSelections()
      .map((s) => `${s.getBufferRange().toString()}${s.isReversed() ? ' reversed' : ''}`),
  }))

/**
 * Opens a fresh view page with `options` and focuses its first editor's view, ready for
 * key presses.
 *
 * @example page = await openFocusedEditor(view, { text: 'abc' })
 */
export const openFocusedEditor = async (
  view: { openPage(): Promise<Page> },
  options: OpenOptions,
): Promise<Page> => {
  const page = await view.openPage()
  await inPage(
    page,
    (vp, o) => {
      vp.open(o)
      vp.a.view!.focus()
    },
    options,
  )
  return page
}
