/// <reference lib="dom" />
/**
 * A page with the playground's editor pane, toolbar and command palette over a local editor
 * (no server), for the palette's and the toolbar's browser tests. Driven through
 * `globalThis.palettePage`.
 */
import { TextEditor } from '@tandem/editor'
import { bindPaletteKey, CommandPalette } from '../src/command-palette.js'
import { type EditorPane, mountEditor } from '../src/editor-pane.js'
import { bindToolbar } from '../src/editor-toolbar.js'

/** What a test can use in the page. */
export interface PalettePage {
  readonly editor: TextEditor
  readonly pane: EditorPane
  readonly palette: CommandPalette
}

document.body.innerHTML = `
  <div class="workspace" style="height:100vh">
    <div class="editor-column">
      <div id="toolbar" class="toolbar"></div>
      <main id="editor" class="editor-pane"></main>
    </div>
  </div>`
const editor = new TextEditor({ undoGroupingInterval: 0 })
const pane = mountEditor(editor, document.getElementById('editor')!, 'Document test', 'light')
const palette = new CommandPalette(document.body, {
  commands: () => pane.commands(),
  run: (name) => pane.run(name),
  restoreFocus: () => pane.focus(),
})
const update = bindToolbar(
  document.getElementById('toolbar')!,
  () => pane,
  () => palette.open(),
)
editor.onDidChangeSoftWrapped(update)
bindPaletteKey(window, palette)
pane.focus()
;(globalThis as unknown as { palettePage: PalettePage }).palettePage = { editor, pane, palette }
