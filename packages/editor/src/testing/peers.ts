import * as Y from 'yjs'
import { TextEditor } from '../index.js'

/**
 * Two editors on two documents that exchange every update as soon as it is made. Both start
 * with `text`, put in through A's buffer, with A's undo history cleared so that undo only
 * reaches what a test does next.
 *
 * @example const { a, b } = connectedEditors('hello'); a.insertText('!') // b sees it at once
 */
export function connectedEditors(text: string) {
  const docA = new Y.Doc()
  const docB = new Y.Doc()
  docA.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== 'remote') Y.applyUpdate(docB, update, 'remote')
  })
  docB.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== 'remote') Y.applyUpdate(docA, update, 'remote')
  })
  const a = new TextEditor({ doc: docA })
  const b = new TextEditor({ doc: docB })
  a.getBuffer().setText(text)
  a.getBuffer().clearUndoStack()
  return { a, b, docA, docB }
}
