/**
 * `bindAwareness`: an editor's own selections out to an awareness, other peers' in.
 */
import type { TextEditor } from '@tandem/editor'
import type { Disposable, DisposableLike } from '@tandem/text'
import type { Awareness } from 'y-protocols/awareness'
import { PeerFollowing } from './following.js'
import type { CollabUser, RemoteCursor } from './peers.js'
import { RemoteCursors } from './remote-cursors.js'
import { SelectionPublisher, type SelectionPublisherOptions } from './selection-publisher.js'

/** Options of `bindAwareness`. */
export interface BindAwarenessOptions extends SelectionPublisherOptions {
  /** Who this user is: published as the awareness `user` field. */
  readonly user: CollabUser
}

/** What `bindAwareness` returns. */
export interface AwarenessBinding extends DisposableLike {
  /** The editor whose selections are published and which shows the others. */
  readonly editor: TextEditor
  /** The awareness the selections travel through. */
  readonly awareness: Awareness
  /** The other peers shown in the editor, with their selections where they are now. */
  getRemoteCursors(): RemoteCursor[]
  /** Calls `callback` after remote carets or selections shown in the editor changed. */
  onDidChangeRemoteCursors(callback: () => void): Disposable
  /** Publishes the editor's selections now instead of at the next frame. */
  flush(): void
  /** Starts publishing the editor's selections, when `holdSelections` held them. */
  releaseSelections(): void
  /** Following other peers in this editor's view, and who follows this client. */
  readonly peerFollowing: PeerFollowing
}

/**
 * Shares `editor`'s selections through `awareness` and shows every other client's carets and
 * selections in it as markers and decorations, until disposed or the editor is destroyed.
 * Disposing clears this client's `cursor`, `selections`, `viewport` and `following` and removes
 * the remote markers. `peerFollowing` follows other peers (see `PeerFollowing`).
 *
 * @example
 * const binding = bindAwareness(editor, provider.awareness, { user: { name: 'Ada', color: '#d33' } })
 * binding.getRemoteCursors() // => [{ clientId, user, ownTab, selections: [{ range, reversed }] }]
 */
export const bindAwareness = (
  editor: TextEditor,
  awareness: Awareness,
  options: BindAwarenessOptions,
): AwarenessBinding => {
  const { user } = options
  if (typeof user !== 'object' || user === null || typeof user.name !== 'string') {
    throw new TypeError('bindAwareness needs options.user with at least a name and a color')
  }
  if (editor.getBuffer().doc !== awareness.doc) {
    throw new Error("bindAwareness: the awareness belongs to another Y.Doc than the editor's")
  }
  const publisher = new SelectionPublisher(editor, awareness, user, options)
  const remote = new RemoteCursors(editor, awareness, user)
  const peerFollowing = new PeerFollowing(editor, awareness, options)
  return {
    editor,
    awareness,
    getRemoteCursors: () => remote.getRemoteCursors(),
    onDidChangeRemoteCursors: (callback) => remote.onDidChange(callback),
    flush: () => publisher.flush(),
    releaseSelections: () => publisher.release(),
    peerFollowing,
    dispose: () => {
      peerFollowing.dispose()
      publisher.dispose()
      remote.dispose()
    },
  }
}
