/// <reference lib="dom" />
/**
 * Copy, cut and paste through the browser's clipboard events. The text goes out as
 * `text/plain` for every application, and with the editor's clipboard metadata (whole-line
 * copies, one piece per selection) under `TANDEM_CLIPBOARD_TYPE`, so a paste into a Tandem
 * editor, in this page or another, behaves as a paste within one editor does in Atom.
 */
import type { ClipboardMetadata, TextEditor } from '@tandem/editor'

/** The clipboard type carrying `{ text, metadata }` as JSON between Tandem editors. */
export const TANDEM_CLIPBOARD_TYPE = 'application/x-tandem-editor'

/**
 * What a copy or cut should put on the system clipboard: runs the editor's copy (or cut)
 * and reads back the text and metadata it stored.
 *
 * @example const { text, metadata } = takeClipboardPayload(editor, 'copy')
 */
export const takeClipboardPayload = (
  editor: TextEditor,
  kind: 'copy' | 'cut',
): { text: string; metadata: ClipboardMetadata | null } => {
  if (kind === 'copy') editor.copySelectedText()
  else editor.cutSelectedText()
  return editor.getClipboard().readWithMetadata()
}

/**
 * The metadata carried with `text` under `TANDEM_CLIPBOARD_TYPE`, or null when there is none,
 * it is malformed, or it was written for other text (something else changed the clipboard).
 *
 * @example readTandemMetadata('a\n', '{"text":"a\\n","metadata":{"fullLine":true}}') // => { fullLine: true }
 */
export const readTandemMetadata = (text: string, payload: string): ClipboardMetadata | null => {
  if (payload === '') return null
  try {
    const parsed = JSON.parse(payload) as { text?: unknown; metadata?: unknown }
    if (parsed.text !== text) return null
    const { metadata } = parsed
    return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
      ? (metadata as ClipboardMetadata)
      : null
  } catch {
    return null
  }
}

/**
 * Handles `copy`, `cut` and `paste` events on `target` (the view's hidden input) for
 * `editor`, until disposed.
 *
 * @example const handler = new ClipboardEvents(editor, textarea); handler.dispose()
 */
export class ClipboardEvents {
  private readonly listeners: [string, (event: ClipboardEvent) => void][]

  constructor(
    readonly editor: TextEditor,
    readonly target: HTMLElement,
  ) {
    this.listeners = [
      ['copy', (event) => this.copyOrCut(event, 'copy')],
      ['cut', (event) => this.copyOrCut(event, 'cut')],
      ['paste', (event) => this.paste(event)],
    ]
    for (const [type, listener] of this.listeners) {
      target.addEventListener(type, listener as EventListener)
    }
  }

  /** Stops handling the events. */
  dispose(): void {
    for (const [type, listener] of this.listeners) {
      this.target.removeEventListener(type, listener as EventListener)
    }
  }

  private copyOrCut(event: ClipboardEvent, kind: 'copy' | 'cut'): void {
    const data = event.clipboardData
    if (data === null) return
    event.preventDefault()
    const { text, metadata } = takeClipboardPayload(this.editor, kind)
    data.setData('text/plain', text)
    data.setData(TANDEM_CLIPBOARD_TYPE, JSON.stringify({ text, metadata }))
    if (this.target instanceof HTMLTextAreaElement) this.target.value = ''
  }

  private paste(event: ClipboardEvent): void {
    const data = event.clipboardData
    if (data === null) return
    event.preventDefault()
    const text = data.getData('text/plain').replace(/\r\n?/g, '\n')
    if (text === '') return
    const metadata = readTandemMetadata(text, data.getData(TANDEM_CLIPBOARD_TYPE))
    this.editor.getClipboard().write(text, metadata ?? undefined)
    this.editor.pasteText()
  }
}
