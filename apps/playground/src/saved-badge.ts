/// <reference lib="dom" />
/**
 * The "Saved" badge: whether what was typed on this page is stored on the server, from
 * `connection.saved`, which turns true only once the server's store has written it.
 */
import type { CollabConnection } from '@tandem/collab'

/** What the badge can say. */
export type SavedLabel = 'saved' | 'saving' | 'unsaved'

const LABELS: Record<SavedLabel, string> = {
  saved: 'Saved',
  saving: 'Saving…',
  unsaved: 'Not saved (kept in this browser)',
}

/**
 * How long the page must have been saved before the badge says so: while someone types, it
 * stays on "Saving…" rather than flickering (and being announced) at every keystroke. Saying
 * "Saving…" a little longer than needed is honest; saying "Saved" early would not be.
 */
const SETTLE_MS = 700

/**
 * What the badge says for a connection: saved, saving (online, the server has yet to store
 * some edits), or not saved (offline with edits, which the offline store keeps in this browser).
 *
 * @example savedLabel(connection) // => 'saving'
 */
export const savedLabel = (connection: CollabConnection): SavedLabel => {
  if (connection.saved) return 'saved'
  return connection.status === 'offline' || connection.status === 'connecting'
    ? 'unsaved'
    : 'saving'
}

/**
 * Keeps `badge` (a live region, `role="status"`) telling whether this page's edits are stored;
 * returns what stops it.
 *
 * @example cleanups.push(showSaved(connection, document.getElementById('saved')!))
 */
export const showSaved = (connection: CollabConnection, badge: HTMLElement): (() => void) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const show = (label: SavedLabel) => {
    clearTimeout(timer)
    const unsaved = connection.unsavedUpdates
    badge.title =
      label === 'saved'
        ? 'Everything typed here is stored on the server'
        : `${unsaved} ${unsaved === 1 ? 'change is' : 'changes are'} not stored on the server yet`
    if (badge.dataset.saved === label) return
    badge.dataset.saved = label
    badge.textContent = LABELS[label]
  }
  const update = () => {
    const label = savedLabel(connection)
    if (label !== 'saved' || badge.dataset.saved === undefined) return show(label)
    clearTimeout(timer)
    timer = setTimeout(() => show(savedLabel(connection)), SETTLE_MS)
  }
  update()
  const subscriptions = [connection.onDidChangeSaved(update), connection.onDidChangeStatus(update)]
  return () => {
    clearTimeout(timer)
    for (const subscription of subscriptions) subscription.dispose()
  }
}
