/**
 * CodeMirror 6 bound to a Y.Text as y-codemirror.next binds it, without a view: what that
 * binding does for every local change, so that suites can compare an editor over Yjs with the
 * editor users would pick instead.
 *
 * y-codemirror.next's sync plugin, after each view update that changed the document, walks the
 * transaction's changes and mirrors each into the Y.Text inside `ydoc.transact(fn, config)`,
 * its config object being the origin; it observes the Y.Text and ignores events of that origin.
 * Its undo plugin hands the same origin to a `Y.UndoManager` on the Y.Text with Yjs's default
 * options (a 500 ms capture timeout, so that a run of keystrokes is one undo step).
 *
 * Left out: the undo plugin also keeps the main selection as two `Y.RelativePosition`s after
 * every selection change, made by `createRelativePositionFromTypeIndex`, which walks the Y.Text's
 * item list from its start. Without that walk the peer is a bound from below on the binding's
 * cost, not an estimate of it.
 */
import { EditorState, type TransactionSpec } from '@codemirror/state'
import * as Y from 'yjs'

/** Name of the shared text in the binding's documents. */
const TEXT_NAME = 'text'

/** The undo manager's capture timeout in milliseconds: Yjs's default, which the binding keeps. */
export const BINDING_CAPTURE_TIMEOUT_MS = 500

/** A headless CodeMirror state whose local changes go into a Y.Text, with undo through Yjs. */
export class HeadlessCodeMirrorYjs {
  /** The state after the last dispatched transaction. */
  state: EditorState
  readonly ytext: Y.Text
  readonly undoManager: Y.UndoManager
  /** Origin of every transaction the binding makes; the undo manager tracks it. */
  readonly origin: object = Object.freeze({ binding: 'codemirror' })
  /** Y.Text events that came from elsewhere (none, in a local replay). */
  remoteEvents = 0

  /**
   * A document holding `content` in both the state and the Y.Text, with an empty history.
   * `captureTimeout` is the binding's default unless given: a replay types thousands of patches
   * within one default timeout, where a person types a few.
   */
  constructor(content: string, captureTimeout = BINDING_CAPTURE_TIMEOUT_MS) {
    const doc = new Y.Doc()
    this.ytext = doc.getText(TEXT_NAME)
    if (content !== '') this.ytext.insert(0, content)
    this.state = EditorState.create({ doc: content })
    this.ytext.observe((_event, transaction) => {
      if (transaction.origin !== this.origin) this.remoteEvents++
    })
    this.undoManager = new Y.UndoManager(this.ytext, { captureTimeout })
    this.undoManager.addTrackedOrigin(this.origin)
  }

  /** Applies `spec` to the state and mirrors its document changes into the Y.Text. */
  dispatch(spec: TransactionSpec): EditorState {
    const transaction = this.state.update(spec)
    this.state = transaction.state
    if (!transaction.docChanged) return this.state
    const { ytext } = this
    ytext.doc!.transact(() => {
      // Changes are given in the old document's offsets; `shift` carries the length the earlier
      // changes of this transaction have added to the Y.Text already.
      let shift = 0
      transaction.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
        const text = inserted.sliceString(0, inserted.length, '\n')
        if (toA > fromA) ytext.delete(fromA + shift, toA - fromA)
        if (text.length > 0) ytext.insert(fromA + shift, text)
        shift += text.length - (toA - fromA)
      })
    }, this.origin)
    return this.state
  }
}
