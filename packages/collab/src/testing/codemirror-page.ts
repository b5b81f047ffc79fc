/**
 * A browser page with a CodeMirror 6 editor bound to a y-websocket room by y-codemirror.next
 * (`yCollab`: its text sync and its remote selections), for interop tests with Tandem: opened
 * when the test calls `codeMirrorPage.open`, driven and read through `globalThis.codeMirrorPage`.
 */
import { EditorState } from '@codemirror/state'
import { EditorView, type EditorViewConfig } from '@codemirror/view'
import { yCollab } from 'y-codemirror.next'
import { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'

/** Who the CodeMirror user is, as y-codemirror.next publishes it in the awareness `user` field. */
export interface CodeMirrorUser {
  readonly name: string
  readonly color: string
  readonly colorLight: string
}

/**
 * A remote caret as y-codemirror.next draws it: the name it shows, its offset, and its color
 * as the browser reads it back from the style (`rgb(...)`).
 */
export interface RenderedCaret {
  readonly name: string
  readonly at: number
  readonly color: string
}

/** Text y-codemirror.next highlights as a remote selection: offsets, background (`rgba(...)`). */
export interface RenderedHighlight {
  readonly from: number
  readonly to: number
  readonly color: string
}

/** What a test can do with the page. */
export interface CodeMirrorPage {
  /** Connects a new editor to `room` on `url`; resolves once it has synced with the server. */
  open(options: { url: string; room: string; user: CodeMirrorUser }): Promise<void>
  /** The editor's text. */
  text(): string
  /** Inserts `text` at offset `pos`, as a local edit. */
  insertAt(pos: number, text: string): void
  /** Focuses the editor and selects from `anchor` to `head` (offsets). */
  select(anchor: number, head: number): void
  /** The editor's main selection, as offsets. */
  selection(): { anchor: number; head: number }
  /** The remote carets drawn in the editor, in document order. */
  remoteCarets(): RenderedCaret[]
  /** The remote selections highlighted in the editor, adjacent pieces joined, in document order. */
  remoteHighlights(): RenderedHighlight[]
  /** Whether the provider has synced with the server. */
  synced(): boolean
}

/** The few parts of a DOM element the page reads. */
interface PageElement {
  readonly textContent: string | null
  readonly childNodes: { readonly length: number }
  readonly style: { readonly backgroundColor: string }
  querySelector(selectors: string): PageElement | null
  querySelectorAll(selectors: string): ArrayLike<PageElement>
}

/** A DOM node, as `EditorView.posAtDOM` takes it. */
type ViewNode = Parameters<EditorView['posAtDOM']>[0]

/** The page's document, as far as the editor needs it. */
const pageDocument = (
  globalThis as unknown as { document: { body: NonNullable<EditorViewConfig['parent']> } }
).document

interface Opened {
  readonly doc: Y.Doc
  readonly provider: WebsocketProvider
  readonly view: EditorView
}

let opened: Opened | null = null

const current = (): Opened => {
  if (!opened) throw new Error('call codeMirrorPage.open first')
  return opened
}

/** Resolves once `provider` has synced (at once when it already has). */
const whenSynced = (provider: WebsocketProvider): Promise<void> =>
  new Promise((resolve) => {
    if (provider.synced) return resolve()
    const onSync = (synced: boolean) => {
      if (!synced) return
      provider.off('sync', onSync)
      resolve()
    }
    provider.on('sync', onSync)
  })

/** The elements under the editor's content that match `selectors`. */
const contentElements = (view: EditorView, selectors: string): PageElement[] =>
  Array.from((view.contentDOM as unknown as PageElement).querySelectorAll(selectors))

/** The remote carets in `view`: the name each shows, where it is, its color. */
const renderedCarets = (view: EditorView): RenderedCaret[] =>
  contentElements(view, '.cm-ySelectionCaret').map((caret) => ({
    name: caret.querySelector('.cm-ySelectionInfo')?.textContent ?? '',
    at: view.posAtDOM(caret as unknown as ViewNode),
    color: caret.style.backgroundColor,
  }))

/**
 * Highlighted stretches, pieces of one color that touch or are only a line break apart (one
 * selection over two lines, or a mark split by a caret) joined.
 */
const renderedHighlights = (view: EditorView): RenderedHighlight[] => {
  const pieces = contentElements(view, '.cm-ySelection')
    .map((mark) => ({
      from: view.posAtDOM(mark as unknown as ViewNode, 0),
      to: view.posAtDOM(mark as unknown as ViewNode, mark.childNodes.length),
      color: mark.style.backgroundColor,
    }))
    .sort((a, b) => a.from - b.from)
  const joined: RenderedHighlight[] = []
  for (const piece of pieces) {
    const last = joined.at(-1)
    const touches =
      last !== undefined &&
      last.color === piece.color &&
      (piece.from <= last.to ||
        (piece.from === last.to + 1 && view.state.doc.sliceString(last.to, piece.from) === '\n'))
    if (touches) {
      joined[joined.length - 1] = { ...last, to: Math.max(last.to, piece.to) }
    } else {
      joined.push(piece)
    }
  }
  return joined
}

const codeMirrorPage: CodeMirrorPage = {
  async open({ url, room, user }) {
    const doc = new Y.Doc()
    const provider = new WebsocketProvider(url, room, doc, { disableBc: true })
    provider.awareness.setLocalStateField('user', { ...user })
    const ytext = doc.getText('text')
    const state = EditorState.create({
      doc: ytext.toString(),
      extensions: [yCollab(ytext, provider.awareness)],
    })
    const view = new EditorView({ state, parent: pageDocument.body })
    opened = { doc, provider, view }
    await whenSynced(provider)
  },
  text: () => current().view.state.doc.toString(),
  insertAt(pos, text) {
    current().view.dispatch({ changes: { from: pos, insert: text } })
  },
  select(anchor, head) {
    const { view } = current()
    // y-codemirror.next publishes the selection only while the editor has focus.
    view.focus()
    view.dispatch({ selection: { anchor, head } })
  },
  selection() {
    const { anchor, head } = current().view.state.selection.main
    return { anchor, head }
  },
  remoteCarets: () => renderedCarets(current().view),
  remoteHighlights: () => renderedHighlights(current().view),
  synced: () => current().provider.synced,
}

;(globalThis as unknown as { codeMirrorPage: CodeMirrorPage }).codeMirrorPage = codeMirrorPage
