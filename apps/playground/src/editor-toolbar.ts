/// <reference lib="dom" />
/**
 * The toolbar over the editor: buttons for what has a key but no visible way in (find, go to
 * line, soft wrap, folding, the font size, the command palette), each titled with its key.
 * The soft-wrap button is a toggle that shows the editor's state.
 */
import type { EditorPane } from './editor-pane.js'

/** A toolbar button: the command it runs, its text, and the key to name in its title. */
interface ToolbarButton {
  readonly command: string
  readonly text: string
  readonly label: string
  readonly keys: string
}

/** The buttons, in order; `palette` opens the command palette. */
export const TOOLBAR_BUTTONS: readonly ToolbarButton[] = [
  { command: 'find-and-replace:show', text: 'Find', label: 'Find and replace', keys: 'Ctrl+F' },
  { command: 'go-to-line:toggle', text: 'Go to line', label: 'Go to line', keys: 'Ctrl+G' },
  { command: 'editor:toggle-soft-wrap', text: 'Wrap', label: 'Soft wrap', keys: 'Alt+Z' },
  { command: 'editor:fold-current-row', text: 'Fold', label: 'Fold', keys: 'Ctrl+Alt+[' },
  { command: 'editor:unfold-current-row', text: 'Unfold', label: 'Unfold', keys: 'Ctrl+Alt+]' },
  { command: 'editor:fold-all', text: 'Fold all', label: 'Fold all', keys: 'Ctrl+Alt+{' },
  { command: 'editor:unfold-all', text: 'Unfold all', label: 'Unfold all', keys: 'Ctrl+Alt+}' },
  {
    command: 'window:decrease-font-size',
    text: 'A\u2212',
    label: 'Smaller text',
    keys: 'Ctrl+-',
  },
  {
    command: 'window:increase-font-size',
    text: 'A+',
    label: 'Larger text',
    keys: 'Ctrl+=',
  },
  { command: 'palette', text: 'Commands', label: 'Command palette', keys: 'Ctrl+Shift+P' },
]

/**
 * Fills `toolbar` with the buttons, running their commands on the pane `pane()` returns (the
 * open document's); `openPalette` opens the command palette. Returns a function that updates
 * the soft-wrap toggle's state.
 *
 * @example const update = bindToolbar(element, () => session?.pane ?? null, () => palette.open())
 */
export const bindToolbar = (
  toolbar: HTMLElement,
  pane: () => EditorPane | null,
  openPalette: () => void,
): (() => void) => {
  const document = toolbar.ownerDocument
  toolbar.setAttribute('role', 'toolbar')
  toolbar.setAttribute('aria-label', 'Editor')
  let wrap: HTMLButtonElement | null = null
  for (const { command, text, label, keys } of TOOLBAR_BUTTONS) {
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'tool'
    button.textContent = text
    button.title = `${label} (${keys})`
    button.dataset.command = command
    if (text !== label) button.setAttribute('aria-label', label)
    button.setAttribute('aria-keyshortcuts', keys.replaceAll('Ctrl', 'Control'))
    if (command === 'editor:toggle-soft-wrap') {
      button.setAttribute('aria-pressed', 'false')
      wrap = button
    }
    button.addEventListener('click', () => {
      if (command === 'palette') {
        openPalette()
        return
      }
      const open = pane()
      if (open === null) return
      open.focus()
      open.run(command)
      update()
    })
    toolbar.append(button)
  }
  const update = () => {
    wrap?.setAttribute('aria-pressed', String(pane()?.editor.isSoftWrapped() ?? false))
  }
  update()
  return update
}
