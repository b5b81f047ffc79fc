/// <reference lib="dom" />
/**
 * The editor pane: `@tandem/view`'s DOM view of a TextEditor, filling its element. This is the
 * one module of the app that knows the view.
 */
import type { FollowViewport } from '@tandem/collab'
import type { TextEditor } from '@tandem/editor'
import {
  type AttributionOptions,
  type AttributionSource,
  type EditorTheme,
  EditorView,
  type ProposalOptions,
  type ProposalSource,
  readableKeystrokes,
} from '@tandem/view'
import { commandTitle, type PaletteCommand } from './command-palette.js'

/** A mounted editor view. */
export interface EditorPane {
  /** The editor shown. */
  readonly editor: TextEditor
  /** The rows in sight, for following and being followed (the view itself). */
  readonly viewport: FollowViewport
  /** Gives the editor the keyboard focus. */
  focus(): void
  /** Shows the editor's light or dark theme, or follows the system (`auto`). */
  setTheme(theme: EditorTheme): void
  /** Every command of the view, with its title and key bindings, by title. */
  commands(): PaletteCommand[]
  /** Runs a command by name, as its key would (`editor:toggle-soft-wrap`). */
  run(name: string): void
  /** Colours the text by who wrote it, as `source` says, with a legend (or stops: null). */
  showAuthors(source: AttributionSource | null, options?: AttributionOptions): void
  /** Shows the changes `source` proposes as suggestions in the text (or stops: null). */
  showProposals(source: ProposalSource | null, options?: ProposalOptions): void
  /** Draws the view again (after the editor became read-only, say). */
  refresh(): void
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
    editor,
    viewport: view,
    focus: () => view.focus(),
    setTheme: (next) => view.setTheme(next),
    commands: () =>
      view
        .getCommandNames()
        .map((name) => ({
          name,
          title: commandTitle(name),
          keys: view.keystrokesForCommand(name).map(readableKeystrokes),
        }))
        .sort((a, b) => a.title.localeCompare(b.title)),
    run: (name) => {
      view.dispatchCommand(name)
    },
    showAuthors: (source, options) => {
      if (source === null) view.hideAttribution()
      else view.showAttribution(source, options)
    },
    showProposals: (source, options) => {
      if (source === null) view.hideProposals()
      else view.showProposals(source, options)
    },
    refresh: () => view.scheduleUpdate(),
    destroy: () => view.destroy(),
  }
}
