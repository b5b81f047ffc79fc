/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * A browser page for the view's tests and a quick look at the view: editor A (Ada) in a view,
 * and optionally editor B (Bob) on a second Y.Doc, synced with A's document and awareness in
 * the page, shown beside it. Each editor shares its selections through `bindAwareness`, so
 * each view draws the other's caret, name and selection. Driven through `globalThis.viewPage`.
 */
import { TextEditor } from '@tandem/editor'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as Y from 'yjs'
import { type AwarenessBinding, bindAwareness } from '../../../collab/src/index.js'
import { setAssetLocator } from '../../../language/src/assets.js'
import { loadLanguage } from '../../../language/src/registry.js'
import { EditorView, type EditorViewOptions } from '../index.js'

/** One side of the page: an editor, its view (when shown) and its awareness binding. */
export interface PageEditor {
  readonly editor: TextEditor
  readonly view: EditorView | null
  readonly element: HTMLElement | null
  readonly binding: AwarenessBinding
}

/** Options of `viewPage.open`. */
export interface OpenOptions {
  readonly text: string
  /** Size of each editor element in pixels (default 640 x 360). */
  readonly width?: number
  readonly height?: number
  /** Make editor B and show it too (default false: A only). */
  readonly peer?: boolean | 'hidden'
  readonly view?: EditorViewOptions
  /** Options of both editors (`softWrapped`, `undoGroupingInterval`, `grammar`, ...). */
  readonly editor?: Record<string, unknown>
}

/** The users of the two editors. */
export const ADA = { name: 'Ada', color: '#1a7f37', colorLight: '#aceebb' }
export const BOB = { name: 'Bob', color: '#cf222e' }

/** What a test can use in the page. */
export interface ViewPage {
  /** Makes the editors (dropping earlier ones). */
  open(options: OpenOptions): void
  readonly a: PageEditor
  readonly b: PageEditor | null
  /** Publishes both editors' selections and brings both views up to date. */
  flush(): void
  /**
   * Where the browser laid out the boundary before `column` of screen row `row` in side
   * `side`'s view (client pixels), read from the rendered text itself: the left edge of the
   * grapheme cluster starting there, or the right edge of the last one at the row's end; null
   * when the row has no element or the column is inside a cluster.
   */
  glyphPosition(side: 'a' | 'b', row: number, column: number): { left: number; top: number } | null
  /**
   * The grapheme clusters of screen row `row` as the browser laid them out: first column,
   * length in UTF-16 units, and left and right edges in client pixels.
   */
  clusters(
    side: 'a' | 'b',
    row: number,
  ): { column: number; length: number; left: number; right: number }[]
  /** The remote carets drawn in side `side`'s view: label, color, center line and top. */
  remoteCarets(side: 'a' | 'b'): { name: string | null; color: string; left: number; top: number }[]
  /** The local carets drawn in side `side`'s view: center line and top. */
  localCarets(side: 'a' | 'b'): { left: number; top: number }[]
  /** Loads language `id` (its grammar files are served by the page's server). */
  loadLanguage(id: string): Promise<void>
  /** Waits for two animation frames (what an event-driven update needs to land). */
  frames(): Promise<void>
  close(): void
}

setAssetLocator(({ pkg, path }) => new URL(`/packages/${pkg}/${path}`, location.href))

let a: PageEditor | null = null
let b: PageEditor | null = null
const disposers: (() => void)[] = []

const makeElement = (width: number, height: number): HTMLElement => {
  const element = document.createElement('div')
  element.style.cssText = `width:${width}px;height:${height}px;display:inline-block;margin:8px;border:1px solid #d0d7de;vertical-align:top`
  document.body.appendChild(element)
  return element
}

/** Sends every document and awareness update of one side to the other. */
const link = (
  docA: Y.Doc,
  docB: Y.Doc,
  awA: awarenessProtocol.Awareness,
  awB: awarenessProtocol.Awareness,
) => {
  const pairs: [Y.Doc, Y.Doc][] = [
    [docA, docB],
    [docB, docA],
  ]
  for (const [from, to] of pairs) {
    const onUpdate = (update: Uint8Array, origin: unknown) => {
      if (origin !== 'link') Y.applyUpdate(to, update, 'link')
    }
    from.on('update', onUpdate)
    disposers.push(() => from.off('update', onUpdate))
  }
  const awarenessPairs: [awarenessProtocol.Awareness, awarenessProtocol.Awareness][] = [
    [awA, awB],
    [awB, awA],
  ]
  for (const [from, to] of awarenessPairs) {
    const onUpdate = (
      { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
      origin: unknown,
    ) => {
      if (origin === 'link') return
      const clients = [...added, ...updated, ...removed]
      const update = awarenessProtocol.encodeAwarenessUpdate(from, clients)
      awarenessProtocol.applyAwarenessUpdate(to, update, 'link')
    }
    from.on('update', onUpdate)
    disposers.push(() => from.off('update', onUpdate))
  }
}

const elementOf = (side: 'a' | 'b'): HTMLElement => {
  const element = (side === 'a' ? a : b)?.element
  if (element == null) throw new Error(`no view on side ${side}`)
  return element
}

/**
 * The grapheme clusters of a rendered row, each with its first column and the left and right
 * edges of its glyphs in client pixels, read with a Range over each cluster's text.
 */
const clustersOf = (line: HTMLElement) => {
  const nodes: { node: Text; start: number }[] = []
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT)
  let text = ''
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    nodes.push({ node: node as Text, start: text.length })
    text += (node as Text).data
  }
  const at = (column: number, end: boolean) => {
    let index = nodes.length - 1
    while (index > 0 && (end ? nodes[index]!.start >= column : nodes[index]!.start > column)) {
      index--
    }
    return { node: nodes[index]!.node, offset: column - nodes[index]!.start }
  }
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
  return [...segmenter.segment(text)].map(({ index, segment }) => {
    const range = document.createRange()
    const from = at(index, false)
    const to = at(index + segment.length, true)
    range.setStart(from.node, from.offset)
    range.setEnd(to.node, to.offset)
    const rect = range.getBoundingClientRect()
    return { column: index, length: segment.length, left: rect.left, right: rect.right }
  })
}

const lineElement = (side: 'a' | 'b', row: number) =>
  elementOf(side).querySelector<HTMLElement>(`.tandem-line[data-screen-row="${row}"]`)

const glyphPosition = (side: 'a' | 'b', row: number, column: number) => {
  const line = lineElement(side, row)
  if (line === null) return null
  const { top, left } = line.getBoundingClientRect()
  const clusters = clustersOf(line)
  const cluster = clusters.find((c) => c.column === column)
  if (cluster !== undefined) return { left: cluster.left, top }
  const last = clusters[clusters.length - 1]
  if (last !== undefined && last.column + last.length === column) return { left: last.right, top }
  if (clusters.length === 0 && column === 0) return { left, top }
  return null
}

const caretCenter = (element: Element) => {
  const rect = element.getBoundingClientRect()
  return { left: rect.left + rect.width / 2, top: rect.top }
}

const viewPage: ViewPage = {
  glyphPosition,
  clusters: (side, row) => {
    const line = lineElement(side, row)
    return line === null ? [] : clustersOf(line)
  },
  remoteCarets: (side) =>
    [...elementOf(side).querySelectorAll('.tandem-remote-cursor')].map((caret) => ({
      name: caret.querySelector('.tandem-remote-label')?.textContent ?? null,
      color: getComputedStyle(caret).backgroundColor,
      ...caretCenter(caret),
    })),
  localCarets: (side) =>
    [...elementOf(side).querySelectorAll('.tandem-cursor')].map((caret) => caretCenter(caret)),
  open(options) {
    viewPage.close()
    document.body.style.margin = '0'
    document.body.style.background = '#ffffff'
    const width = options.width ?? 640
    const height = options.height ?? 360
    const docA = new Y.Doc()
    const docB = new Y.Doc()
    const awA = new awarenessProtocol.Awareness(docA)
    const awB = new awarenessProtocol.Awareness(docB)
    link(docA, docB, awA, awB)
    const editorA = new TextEditor({ ...options.editor, doc: docA })
    editorA.getBuffer().setText(options.text)
    editorA.getBuffer().clearUndoStack()
    editorA.setCursorBufferPosition([0, 0])
    const elementA = makeElement(width, height)
    const viewA = new EditorView(editorA, elementA, options.view)
    a = {
      editor: editorA,
      view: viewA,
      element: elementA,
      binding: bindAwareness(editorA, awA, { user: ADA, throttleMs: 0 }),
    }
    if (options.peer) {
      const editorB = new TextEditor({ ...options.editor, doc: docB })
      const elementB = options.peer === 'hidden' ? null : makeElement(width, height)
      b = {
        editor: editorB,
        view: elementB === null ? null : new EditorView(editorB, elementB, options.view),
        element: elementB,
        binding: bindAwareness(editorB, awB, { user: BOB, throttleMs: 0 }),
      }
    }
    disposers.push(() => {
      awA.destroy()
      awB.destroy()
    })
  },
  get a() {
    if (a === null) throw new Error('call viewPage.open first')
    return a
  },
  get b() {
    return b
  },
  flush() {
    for (const side of [a, b]) side?.binding.flush()
    for (const side of [a, b]) side?.view?.updateSync()
  },
  loadLanguage: (id) => loadLanguage(id),
  frames: () =>
    new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  close() {
    for (const side of [a, b]) {
      if (side === null) continue
      side.binding.dispose()
      side.view?.destroy()
      side.editor.destroy()
      side.element?.remove()
    }
    a = null
    b = null
    for (const dispose of disposers.splice(0)) dispose()
  },
}

;(globalThis as unknown as { viewPage: ViewPage }).viewPage = viewPage
