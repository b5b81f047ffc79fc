/// <reference lib="dom" />
/**
 * The view benchmark's Tandem page: a `TextEditor` in JavaScript shown by an `EditorView` and
 * connected to the room by `connect`, as an application embeds them. The language's files are
 * served by the page's own server under `/packages/<package>/<path>`.
 */
import { connect } from '@tandem/collab'
import { TextEditor } from '@tandem/editor'
import { loadLanguage, setAssetLocator } from '@tandem/language'
import * as Y from 'yjs'
import { EditorView } from '../src/index.js'
import { editorElement, installProbe, pageSettings } from './paint-probe.js'

setAssetLocator(({ pkg, path }) => new URL(`/packages/${pkg}/${path}`, location.href))
const { url, room } = pageSettings()
const element = editorElement()
const editor = new TextEditor({ doc: new Y.Doc(), grammar: 'javascript' })
const view = new EditorView(editor, element)
const connection = connect(editor, {
  url,
  room,
  user: { name: 'Ada', color: '#1a7f37', colorLight: '#aceebb' },
  crossTab: false,
  restoreSession: false,
})
const scroller = element.querySelector<HTMLElement>('.tandem-scroller')
if (scroller === null) throw new Error('the view has no scroller')
installProbe({
  root: element,
  scroller,
  shownLine: (row) =>
    element.querySelector(`.tandem-line[data-screen-row="${row}"]`)?.textContent ?? null,
  modelLine: (row) => editor.lineTextForBufferRow(row) ?? '',
  lineCount: () => editor.getLineCount(),
  placeCaret: (row, column) => {
    editor.setCursorBufferPosition([row, column])
    view.focus()
  },
  remotePeers: () => connection.getRemoteCursors().length,
  ready: Promise.all([connection.whenSynced, loadLanguage('javascript')]).then(() => {}),
})
