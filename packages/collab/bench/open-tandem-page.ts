/// <reference lib="dom" />
/**
 * The open-document benchmark's Tandem page: a `TextEditor` shown by an `EditorView` and
 * connected to the room by `connect`, as an application embeds them (docs/embedding.md).
 */
import { TextBuffer } from '@tandem/buffer'
import { TextEditor } from '@tandem/editor'
import { EditorView } from '../../view/src/index.js'
import { connect } from '../src/index.js'
import { editorElement, pageSettings, watchFirstScreen } from './first-screen.js'

const { url, room } = pageSettings()
const element = editorElement()
const editor = new TextEditor({ buffer: new TextBuffer() })
new EditorView(editor, element)
watchFirstScreen(element, (count) =>
  Array.from(
    { length: count },
    (_, row) =>
      element.querySelector(`.tandem-line[data-screen-row="${row}"]`)?.textContent ?? null,
  ),
)
connect(editor, {
  url,
  room,
  user: { name: 'Ada', color: '#1a7f37', colorLight: '#aceebb', id: 'ada' },
  crossTab: false,
})
