/**
 * A small tour of the buffer: two peers share one text; one marks a word, the other edits
 * around it, and the marker stays on the same word.
 */
import * as Y from 'yjs'
import { TextBuffer } from '../src/index.js'

const alice = new TextBuffer({ text: 'Tandem keeps cursors in place.\n' })
const bob = new TextBuffer({ doc: new Y.Doc() })

// Wire the two documents together, as a network provider would.
alice.doc.on('update', (update: Uint8Array) => Y.applyUpdate(bob.doc, update, 'network'))
bob.doc.on('update', (update: Uint8Array, origin: unknown) => {
  if (origin !== 'network') Y.applyUpdate(alice.doc, update, 'network')
})
Y.applyUpdate(bob.doc, Y.encodeStateAsUpdate(alice.doc), 'network')

const word = bob.markRange([
  [0, 13],
  [0, 20],
])
console.log(`bob marks ${JSON.stringify(bob.getTextInRange(word.getRange()))}`)

bob.onDidChange(({ changes, remote }) => {
  for (const change of changes) {
    console.log(
      `bob sees a ${remote ? 'remote' : 'local'} change at ${change.newRange}: ${JSON.stringify(change.newText)}`,
    )
  }
})

alice.insert([0, 0], 'Look: ')
alice.insert([0, 19], 'all ')
alice.append('Even while others type.\n')

console.log(
  `bob's marker now covers ${JSON.stringify(bob.getTextInRange(word.getRange()))} at ${word.getRange()}`,
)
console.log(`alice undoes her last change: ${alice.undo()}`)
console.log(`both read: ${JSON.stringify(bob.getText())}`)
