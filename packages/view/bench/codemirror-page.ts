/// <reference lib="dom" />
/**
 * The view benchmark's CodeMirror page: CodeMirror 6 with what Tandem's view shows (line
 * numbers with the caret's line marked, drawn carets and selections, JavaScript with syntax
 * highlighting), bound to the room by y-codemirror.next over a y-websocket provider, as that
 * binding's documentation wires it.
 */
import { javascript } from '@codemirror/lang-javascript'
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { EditorState } from '@codemirror/state'
import { drawSelection, EditorView, highlightActiveLineGutter, lineNumbers } from '@codemirror/view'
import { yCollab } from 'y-codemirror.next'
import { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'
import { editorElement, installProbe, pageSettings } from './paint-probe.js'

const { url, room } = pageSettings()
const element = editorElement()
const doc = new Y.Doc()
const provider = new WebsocketProvider(url, room, doc, { disableBc: true })
provider.awareness.setLocalStateField('user', {
  name: 'Ada',
  color: '#1a7f37',
  colorLight: '#aceebb',
})
const ytext = doc.getText('text')
const view = new EditorView({
  state: EditorState.create({
    doc: ytext.toString(),
    extensions: [
      lineNumbers(),
      highlightActiveLineGutter(),
      drawSelection(),
      javascript(),
      syntaxHighlighting(defaultHighlightStyle),
      EditorView.theme({ '&': { height: '100%' } }),
      yCollab(ytext, provider.awareness),
    ],
  }),
  parent: element,
})

/** The text of a line element, without the widgets drawn in it (remote carets and their names). */
const textOf = (node: Node): string => {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? ''
  if (
    node instanceof HTMLElement &&
    (node.contentEditable === 'false' || node.classList.contains('cm-ySelectionCaret'))
  ) {
    return ''
  }
  let text = ''
  for (const child of node.childNodes) text += textOf(child)
  return text
}

installProbe({
  root: element,
  scroller: view.scrollDOM,
  shownLine: (row) => {
    if (row >= view.state.doc.lines) return null
    const { from } = view.state.doc.line(row + 1)
    if (from < view.viewport.from || from > view.viewport.to) return null
    const { node } = view.domAtPos(from)
    const line = (node instanceof HTMLElement ? node : node.parentElement)?.closest('.cm-line')
    return line == null ? null : textOf(line)
  },
  modelLine: (row) => view.state.doc.line(row + 1).text,
  lineCount: () => view.state.doc.lines,
  placeCaret: (row, column) => {
    view.dispatch({ selection: { anchor: view.state.doc.line(row + 1).from + column } })
    view.focus()
  },
  remotePeers: () => Math.max(0, provider.awareness.getStates().size - 1),
  ready: new Promise<void>((resolve) => {
    if (provider.synced) resolve()
    else provider.once('sync', () => resolve())
  }),
})
