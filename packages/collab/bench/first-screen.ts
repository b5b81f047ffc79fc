/// <reference lib="dom" />
/**
 * In-page half of the open-document benchmark's client row: what the bench process gives the
 * page (set before any page script runs), and the watch that tells it when the editor first
 * shows the document's first rows.
 */

/** What the bench process sets as `globalThis.openDocument` before the page loads. */
export interface OpenDocumentSettings {
  /** The server, `ws://127.0.0.1:PORT`. */
  readonly url: string
  readonly room: string
  /** The document's first lines: the first screen, as it must be shown. */
  readonly expected: readonly string[]
}

/** When the first screen was shown, in milliseconds since navigation started. */
export interface FirstScreen {
  /** The page's script began (bundle loaded and parsed). */
  readonly scriptMs: number
  /** The rows were in the DOM with the right text. */
  readonly domMs: number
  /** The frame showing them was drawn (the next animation frame, then a task after it). */
  readonly paintedMs: number
}

interface PageGlobals {
  readonly openDocument: OpenDocumentSettings
  readonly reportFirstScreen: (shown: FirstScreen) => void
}

const globals = globalThis as unknown as PageGlobals

/** The settings the bench process gave this page. */
export const pageSettings = (): OpenDocumentSettings => globals.openDocument

/** When the page's script began: the first thing each page does is {@link editorElement}. */
let scriptMs = Number.NaN

/** An element of the benchmark's editor size, in the page. */
export const editorElement = (): HTMLElement => {
  scriptMs = performance.now()
  document.body.style.margin = '0'
  const element = document.createElement('div')
  element.style.cssText = 'width:1000px;height:800px;overflow:hidden'
  document.body.appendChild(element)
  return element
}

/**
 * Watches `root` and reports the first screen to the bench process once `shownLines(count)`
 * (the texts of the first `count` lines the editor shows, fewer while it shows fewer) equal the
 * expected lines. Checked after every change to `root`'s DOM.
 */
export const watchFirstScreen = (
  root: HTMLElement,
  shownLines: (count: number) => readonly (string | null)[],
) => {
  const { expected } = pageSettings()
  const shown = () => {
    const lines = shownLines(expected.length)
    return expected.every((line, i) => lines[i] === line)
  }
  const observer = new MutationObserver(() => {
    if (!shown()) return
    const domMs = performance.now()
    observer.disconnect()
    requestAnimationFrame(() =>
      setTimeout(
        () => globals.reportFirstScreen({ scriptMs, domMs, paintedMs: performance.now() }),
        0,
      ),
    )
  })
  observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true })
}
