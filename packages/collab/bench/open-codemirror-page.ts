/// <reference lib="dom" />
/**
 * The open-document benchmark's CodeMirror page: CodeMirror 6 with line numbers, bound to the
 * room by y-codemirror.next over a y-websocket provider, as that binding's documentation wires it.
 */
import { EditorState } from '@codemirror/state'
import { EditorView, lineNumbers } from '@codemirror/view'
import { yCollab } from 'y-codemirror.next'
import { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'
import { editorElement, pageSettings, watchFirstScreen } from './first-screen.js'

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
      EditorView.theme({ '&': { height: '100%' } }),
      yCollab(ytext, provider.awareness),
    ],
  }),
  parent: element,
})
watchFirstScreen(element, (count) =>
  Array.from(view.contentDOM.querySelectorAll(':scope > .cm-line'))
    .slice(0, count)
    .map((line) => line.textContent),
)
