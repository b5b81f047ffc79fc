/// <reference lib="dom" />
/**
 * The playground page: one document of the server, co-edited. Wires the header (document
 * picker, language, status, read-only badge, name and color), the "here now" list and the
 * editor pane to a TextEditor connected with `@tandem/collab`.
 */
import { TextBuffer } from '@tandem/buffer'
import { type CollabConnection, type ConnectionStatus, connect } from '@tandem/collab'
import { TextEditor } from '@tandem/editor'
import type { EditorTheme } from '@tandem/view'
import { addressOfRoom, type PageAddress, readAddress, roomsUrl } from './address.js'
import { bindPaletteKey, CommandPalette } from './command-palette.js'
import { type EditorPane, mountEditor } from './editor-pane.js'
import { bindToolbar } from './editor-toolbar.js'
import { HistoryPanel, historyButton } from './history-panel.js'
import { bindLanguagePicker } from './languages.js'
import { showPresence } from './presence.js'
import { showSaved } from './saved-badge.js'
import { type SuggestionList, showSuggestions } from './suggestions.js'
import { collabUser, loadUser, saveUser } from './user.js'

const element = <T extends HTMLElement>(id: string): T => {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`the page has no #${id}`)
  return found as T
}

const ui = {
  documentForm: element<HTMLFormElement>('document-form'),
  document: element<HTMLInputElement>('document'),
  documents: element<HTMLDataListElement>('documents'),
  language: element<HTMLSelectElement>('language'),
  theme: element<HTMLSelectElement>('theme'),
  status: element('status'),
  saved: element('saved'),
  readOnly: element('read-only'),
  userName: element<HTMLInputElement>('user-name'),
  userColor: element<HTMLInputElement>('user-color'),
  editor: element('editor'),
  toolbar: element('toolbar'),
  people: element('people'),
  notice: element('notice'),
  following: element('following'),
  suggestions: element('suggestions'),
  workspace: document.querySelector<HTMLElement>('.workspace') ?? document.body,
}

const STATUS_LABELS: Record<ConnectionStatus, string> = {
  connecting: 'Connecting…',
  connected: 'Syncing…',
  synced: 'Online',
  offline: 'Offline',
}

/** The open document: everything to release when another is opened. */
interface Session {
  readonly room: string
  readonly editor: TextEditor
  readonly connection: CollabConnection
  readonly pane: EditorPane
  readonly suggestions: SuggestionList
  readonly cleanups: (() => void)[]
}

let session: Session | null = null
const user = loadUser(localStorage)
/** The names of everyone seen here, by user id (the history names authors by id). */
const names = new Map<string, string>()

/** The editor's theme: each person's own choice, kept in this browser. */
const THEME_KEY = 'tandem-playground-theme'
const savedTheme = localStorage.getItem(THEME_KEY)
let theme: EditorTheme = savedTheme === 'light' || savedTheme === 'dark' ? savedTheme : 'auto'

/**
 * Shows the connection's status; `refused` is the server's reason for refusing the page, and
 * `why` the reason the last attempt to connect failed (shown while offline).
 */
const showStatus = (status: ConnectionStatus, refused: string | null, why: string | null): void => {
  ui.status.dataset.status = refused === null ? status : 'refused'
  ui.status.textContent = refused === null ? STATUS_LABELS[status] : 'Access refused'
  ui.status.title = refused ?? (status === 'offline' ? (why ?? '') : '')
}

let noticeTimer: ReturnType<typeof setTimeout> | undefined

/** Shows `text` in the sidebar for a few seconds (or for good with `sticky`). */
const notify = (text: string, sticky = false): void => {
  ui.notice.textContent = text
  ui.notice.hidden = false
  clearTimeout(noticeTimer)
  if (!sticky) noticeTimer = setTimeout(() => (ui.notice.hidden = true), 4_000)
}

const showReadOnly = (why: string): void => {
  ui.readOnly.hidden = false
  ui.readOnly.title = why
  ui.language.disabled = true
  session?.editor.setReadOnly(true)
  session?.suggestions.refresh()
  session?.pane.refresh()
}

/** Opens document `room`, closing the one open before. */
const open = (address: PageAddress): void => {
  close()
  ui.document.value = address.room
  document.title = `${address.room} · Tandem`
  ui.readOnly.hidden = true
  ui.language.disabled = false
  ui.notice.hidden = true
  const editor = new TextEditor({ buffer: new TextBuffer() })
  const connection = connect(editor, {
    url: roomsUrl(new URL(location.href)),
    room: address.room,
    token: address.token,
    user: collabUser(user),
    offline: true,
  })
  const pane = mountEditor(editor, ui.editor, `Document ${address.room}`, theme)
  const viewport = connection.attachViewport(pane.viewport)
  const softWrap = editor.onDidChangeSoftWrapped(() => updateToolbar())
  const suggestions = showSuggestions(connection.proposals, ui.suggestions, {
    canReview: () => !editor.isReadOnly(),
    notify: (text) => notify(text),
    focusEditor: () => pane.focus(),
  })
  const cleanups = [
    () => softWrap.dispose(),
    () => viewport.dispose(),
    showPresence(
      connection.awareness,
      ui.people,
      { control: connection, bar: ui.following, notify: (text) => notify(text) },
      { undoLast: (user) => connection.programs.undoLast(user), notify: (text) => notify(text) },
    ),
    showSaved(connection, ui.saved),
    bindLanguagePicker(ui.language, connection.doc, (id) => editor.setGrammar(id)),
    () => suggestions.dispose(),
  ]
  pane.showProposals(connection.proposals, {
    onError: (error, proposal, decision) =>
      notify(`Could not ${decision} ${proposal.name}’s suggestion: ${(error as Error).message}`),
  })
  const noteNames = () => {
    for (const state of connection.awareness.getStates().values()) {
      const seen = state.user as { id?: unknown; name?: unknown } | undefined
      if (typeof seen?.id === 'string' && typeof seen.name === 'string')
        names.set(seen.id, seen.name)
    }
  }
  noteNames()
  connection.awareness.on('change', noteNames)
  cleanups.push(() => connection.awareness.off('change', noteNames))
  session = { room: address.room, editor, connection, pane, suggestions, cleanups }
  historyPanel.reset()
  updateToolbar()
  showStatus(connection.status, null, null)
  const subscriptions = [
    connection.onDidChangeStatus((status) =>
      showStatus(status, null, connection.connectFailure?.reason ?? null),
    ),
    connection.onDidFailAuth((failure) => {
      showStatus('offline', failure.reason, null)
      notify(`The server refused this page: ${failure.reason}`, true)
    }),
    connection.onDidFailToConnect((failure) => {
      showStatus(connection.status, null, failure.reason)
      notify(`Cannot connect: ${failure.reason}`, failure.kind === 'refused')
    }),
    connection.onDidDenyUpdate((reason) => showReadOnly(reason)),
    editor.onDidAttemptReadOnlyEdit(() => notify('This document is read-only for you.')),
  ]
  cleanups.push(() => {
    for (const subscription of subscriptions) subscription.dispose()
  })
  if (address.role === 'read') showReadOnly('your token lets you read this document, not edit it')
  pane.focus()
}

const close = (): void => {
  if (session === null) return
  for (const cleanup of session.cleanups) cleanup()
  session.pane.destroy()
  session.connection.destroy()
  session.editor.destroy()
  session = null
}

/** Fills the document picker with the rooms the server has (it may not tell: then none). */
const listDocuments = async (): Promise<void> => {
  try {
    const response = await fetch('/ws/', { headers: { accept: 'application/json' } })
    if (!response.ok) return
    const { rooms } = (await response.json()) as { rooms: string[] }
    ui.documents.replaceChildren(...rooms.map((room) => new Option(room)))
  } catch {}
}

ui.documentForm.addEventListener('submit', (event) => {
  event.preventDefault()
  const room = ui.document.value.trim()
  if (room === '' || room === session?.room) return
  const next = addressOfRoom(new URL(location.href), room)
  history.pushState(null, '', next)
  open(readAddress(next))
})
ui.document.addEventListener('focus', () => void listDocuments())
window.addEventListener('popstate', () => open(readAddress(new URL(location.href))))
// The undo history is saved a moment after each change; a page going away saves it at once.
window.addEventListener('pagehide', () => session?.connection.flushUndoHistory())

/** The history panel: versions, saving, previews, diffs, restoring, and who wrote what. */
const historyPanel = new HistoryPanel(ui.workspace, {
  history: () => session?.connection.history ?? null,
  nameOf: (id) => (id === user.id ? user.name : names.get(id)),
  showAuthors: (shown) =>
    session?.pane.showAuthors(shown ? session.connection.history : null, {
      show: 'both',
      nameOf: (id) => (id === user.id ? user.name : names.get(id)),
    }),
  focusEditor: () => session?.pane.focus(),
})

/** The page's own commands, listed in the palette with the editor's. */
const PAGE_COMMANDS = [
  { name: 'history:toggle', title: 'History: Toggle', keys: [] },
  { name: 'history:toggle-authors', title: 'History: Toggle Authors', keys: [] },
]

/** The command palette: every command of the editor with its keys (ctrl-shift-p). */
const palette = new CommandPalette(document.body, {
  commands: () =>
    session === null
      ? []
      : [...session.pane.commands(), ...PAGE_COMMANDS].sort((a, b) =>
          a.title.localeCompare(b.title),
        ),
  run: (name) => {
    if (name === 'history:toggle') historyPanel.toggle(historyToggle)
    else if (name === 'history:toggle-authors')
      historyPanel.setAuthorsShown(!historyPanel.authorsShown())
    else session?.pane.run(name)
  },
  restoreFocus: () => session?.pane.focus(),
})
const updateToolbar = bindToolbar(
  ui.toolbar,
  () => session?.pane ?? null,
  () => palette.open(),
)
const historyToggle = historyButton(ui.toolbar, () => historyPanel.toggle(historyToggle))
bindPaletteKey(window, palette)

ui.theme.value = theme
ui.theme.addEventListener('change', () => {
  theme = ui.theme.value as EditorTheme
  localStorage.setItem(THEME_KEY, theme)
  session?.pane.setTheme(theme)
})

ui.userName.value = user.name
ui.userColor.value = user.color
const publishUser = () => {
  const name = ui.userName.value.trim()
  if (name === '') return
  user.name = name
  user.color = ui.userColor.value
  saveUser(localStorage, user)
  session?.connection.awareness.setLocalStateField('user', collabUser(user))
}
ui.userName.addEventListener('change', publishUser)
ui.userColor.addEventListener('input', publishUser)

open(readAddress(new URL(location.href)))
void listDocuments()

/** For the browser console (and the page's tests): the open editor and connection. */
;(globalThis as { playground?: unknown }).playground = {
  get editor() {
    return session?.editor ?? null
  },
  get connection() {
    return session?.connection ?? null
  },
}
