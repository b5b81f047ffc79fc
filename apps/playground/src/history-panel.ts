/// <reference lib="dom" />
/**
 * The history panel: the open document's versions as the server keeps them (when, name or
 * "Automatic", who changed the text, its size), saving a named version, and for each version
 * its text (read-only), what changed since it (inserted and deleted text in its author's
 * colour, with who and when), and restoring it as one undoable change. "Show authors" turns
 * the editor's attribution mode on. Results are announced in a live region; the focus goes to
 * what a button brought up, and back to the History button when the panel closes.
 */
import type { DiffRunJSON, DocumentHistory, VersionJSON } from '@tandem/collab'
import { colorForUser } from '@tandem/view'

/** What the panel needs of the page: the open document's history, the editor, names. */
export interface HistoryPanelHost {
  /** The open document's history, or null when none is open. */
  history(): DocumentHistory | null
  /** The name of user `id`, when someone of that id was seen. */
  nameOf(id: string): string | undefined
  /** Turns the editor's attribution mode on or off. */
  showAuthors(shown: boolean): void
  /** Gives the editor the keyboard focus. */
  focusEditor(): void
}

/** A time as the panel writes it: date and time to the minute, in the page's locale. */
const formatTime = (time: number): string =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(time)

/** At most 80 characters of `text`, line breaks shown as ⏎. */
const excerpt = (text: string): string => {
  const shown = text.replaceAll('\n', '⏎')
  return shown.length > 80 ? `${shown.slice(0, 79)}…` : shown
}

const make = <K extends keyof HTMLElementTagNameMap>(
  document: Document,
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const element = Object.assign(document.createElement(tag), properties)
  element.append(...children)
  return element
}

/**
 * The history panel, in `container` beside the editor (hidden until opened).
 *
 * @example const panel = new HistoryPanel(workspace, host); historyButton.onclick = () => panel.toggle(historyButton)
 */
export class HistoryPanel {
  /** The panel's element. */
  readonly element: HTMLElement
  private readonly status: HTMLElement
  private readonly list: HTMLOListElement
  private readonly result: HTMLElement
  private readonly authorsToggle: HTMLInputElement
  private readonly nameInput: HTMLInputElement
  private opener: HTMLElement | null = null
  /** Counts refreshes: a slow answer to an older one is dropped. */
  private refreshes = 0

  constructor(
    container: HTMLElement,
    private readonly host: HistoryPanelHost,
  ) {
    const document = container.ownerDocument
    const title = make(
      document,
      'h2',
      { id: 'history-title', className: 'history-title' },
      'History',
    )
    const close = make(document, 'button', { type: 'button', className: 'tool' }, 'Close')
    close.setAttribute('aria-label', 'Close history')
    close.addEventListener('click', () => this.close())

    this.authorsToggle = make(document, 'input', { type: 'checkbox', id: 'show-authors' })
    this.authorsToggle.addEventListener('change', () =>
      host.showAuthors(this.authorsToggle.checked),
    )
    // Labels wrap their controls: the name is theirs without an id to point at.
    const authors = make(
      document,
      'label',
      { className: 'history-toggle' },
      this.authorsToggle,
      ' Show authors',
    )

    this.nameInput = make(document, 'input', {
      id: 'version-name',
      className: 'history-input',
      maxLength: 200,
      required: true,
      placeholder: 'e.g. Before the rewrite',
      autocomplete: 'off',
    })
    const save = make(
      document,
      'form',
      { className: 'history-save' },
      make(
        document,
        'label',
        { className: 'history-name' },
        make(document, 'span', { className: 'field-label' }, 'Version name'),
        this.nameInput,
      ),
      make(document, 'button', { type: 'submit', className: 'button' }, 'Save version'),
    )
    save.addEventListener('submit', (event) => {
      event.preventDefault()
      void this.save()
    })

    this.status = make(document, 'p', { className: 'history-status' })
    this.status.setAttribute('role', 'status')
    this.status.setAttribute('aria-live', 'polite')
    this.list = make(document, 'ol', { className: 'versions' })
    this.list.setAttribute('aria-labelledby', 'versions-title')
    this.result = make(document, 'section', { className: 'history-result', hidden: true })
    this.result.setAttribute('aria-live', 'polite')

    this.element = make(
      document,
      'aside',
      { className: 'history-panel', hidden: true, id: 'history-panel' },
      make(document, 'div', { className: 'history-head' }, title, close),
      authors,
      save,
      this.status,
      make(document, 'h3', { id: 'versions-title', className: 'history-subtitle' }, 'Versions'),
      this.list,
      this.result,
    )
    this.element.setAttribute('aria-labelledby', 'history-title')
    this.element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault()
        this.close()
      }
    })
    container.append(this.element)
  }

  /** Whether the panel is open. */
  isOpen(): boolean {
    return !this.element.hidden
  }

  /** Opens the panel (focus on its first control) and lists the versions; `opener` gets the focus back. */
  open(opener: HTMLElement | null = null): void {
    this.opener = opener
    this.element.hidden = false
    opener?.setAttribute('aria-expanded', 'true')
    this.authorsToggle.focus()
    void this.refresh()
  }

  /** Closes the panel and gives the focus back to what opened it (else the editor). */
  close(): void {
    if (this.element.hidden) return
    this.element.hidden = true
    this.opener?.setAttribute('aria-expanded', 'false')
    if (this.opener !== null) this.opener.focus()
    else this.host.focusEditor()
  }

  /** Opens the panel if closed, else closes it. */
  toggle(opener: HTMLElement | null = null): void {
    if (this.isOpen()) this.close()
    else this.open(opener)
  }

  /** Whether "Show authors" is on; `setAuthorsShown` sets it (and the editor's mode). */
  authorsShown(): boolean {
    return this.authorsToggle.checked
  }

  setAuthorsShown(shown: boolean): void {
    this.authorsToggle.checked = shown
    this.host.showAuthors(shown)
  }

  /** Forgets what was shown of another document (a new one is open). */
  reset(): void {
    this.list.replaceChildren()
    this.result.hidden = true
    this.result.replaceChildren()
    this.status.textContent = ''
    if (this.authorsToggle.checked) this.host.showAuthors(true)
    if (this.isOpen()) void this.refresh()
  }

  /** Lists the versions again, newest first. */
  async refresh(): Promise<void> {
    const history = this.host.history()
    if (history === null) return
    const refresh = ++this.refreshes
    let versions: VersionJSON[]
    try {
      versions = await history.versions()
    } catch (error) {
      this.say(`Could not list the versions: ${(error as Error).message}`)
      return
    }
    if (refresh !== this.refreshes) return
    const document = this.element.ownerDocument
    // A button of the list that has the focus keeps it through the new list.
    const focused = document.activeElement
    const action =
      focused instanceof HTMLElement && this.list.contains(focused)
        ? {
            action: focused.dataset.action,
            id: focused.closest<HTMLElement>('li.version')?.dataset.versionId,
          }
        : null
    this.list.replaceChildren(...[...versions].reverse().map((version) => this.item(version)))
    if (action !== null) {
      const again = this.list.querySelector<HTMLElement>(
        `li[data-version-id="${action.id}"] [data-action="${action.action}"]`,
      )
      ;(again ?? this.authorsToggle).focus()
    }
    if (versions.length === 0) {
      this.list.append(make(document, 'li', { className: 'versions-empty' }, 'No versions yet.'))
    }
  }

  private item(version: VersionJSON): HTMLLIElement {
    const document = this.element.ownerDocument
    const title = version.kind === 'named' && version.name !== null ? version.name : 'Automatic'
    const time = make(
      document,
      'time',
      { dateTime: new Date(version.time).toISOString() },
      formatTime(version.time),
    )
    const authors = version.authors.map((id) => this.nameOf(id)).join(', ') || 'nobody'
    const button = (text: string, action: () => Promise<void>) => {
      const element = make(document, 'button', { type: 'button', className: 'tool' }, text)
      element.dataset.action = text
      element.setAttribute('aria-label', `${text}: ${title}, ${formatTime(version.time)}`)
      element.addEventListener('click', () => void action())
      return element
    }
    const item = make(
      document,
      'li',
      { className: 'version' },
      make(document, 'div', { className: 'version-title' }, title),
      make(
        document,
        'div',
        { className: 'version-meta' },
        time,
        ` · by ${authors} · ${version.length} characters`,
      ),
      make(
        document,
        'div',
        { className: 'version-actions' },
        button('Preview', () => this.preview(version, title)),
        button('Diff against now', () => this.diff(version, title)),
        button('Restore', () => this.restore(version, title)),
      ),
    )
    item.dataset.versionId = version.id
    return item
  }

  private nameOf(id: string): string {
    return this.host.nameOf(id) ?? id
  }

  private async save(): Promise<void> {
    const history = this.host.history()
    const name = this.nameInput.value.trim()
    if (history === null || name === '') return
    try {
      await history.saveVersion(name)
    } catch (error) {
      this.say(`Could not save the version: ${(error as Error).message}`)
      return
    }
    this.nameInput.value = ''
    this.say(`Saved version “${name}”.`)
    await this.refresh()
  }

  private async preview(version: VersionJSON, title: string): Promise<void> {
    const history = this.host.history()
    if (history === null) return
    try {
      const opened = await history.openVersion(version.id)
      const document = this.element.ownerDocument
      const text = make(document, 'pre', { className: 'history-text', tabIndex: 0 }, opened.text)
      text.setAttribute('aria-label', `Text of ${title}`)
      this.showResult(`Preview: ${title}`, `${formatTime(version.time)}, read-only`, text)
    } catch (error) {
      this.say(`Could not open the version: ${(error as Error).message}`)
    }
  }

  private async diff(version: VersionJSON, title: string): Promise<void> {
    const history = this.host.history()
    if (history === null) return
    try {
      const { runs } = await history.diff(version.id)
      const inserted = runs.filter((run) => run.kind === 'inserted').length
      const deleted = runs.filter((run) => run.kind === 'deleted').length
      const document = this.element.ownerDocument
      const text = make(
        document,
        'pre',
        { className: 'history-text history-diff', tabIndex: 0 },
        ...runs.map((run) => this.diffRun(run)),
      )
      text.setAttribute('aria-label', `Changes since ${title}`)
      const summary =
        inserted + deleted === 0
          ? 'No changes since this version.'
          : `${inserted} insertion${inserted === 1 ? '' : 's'}, ${deleted} deletion${deleted === 1 ? '' : 's'}.`
      // The same changes in words, for whoever cannot tell them by colour or strike-through.
      const changes = make(
        document,
        'ul',
        { className: 'history-changes' },
        ...runs
          .filter((run) => run.kind !== 'same')
          .map((run) =>
            make(document, 'li', {}, `${this.describeChange(run)}: “${excerpt(run.text)}”`),
          ),
      )
      changes.setAttribute('aria-label', 'Changes in words')
      this.showResult(`Changes since ${title}`, summary, text, changes)
    } catch (error) {
      this.say(`Could not compare the version: ${(error as Error).message}`)
    }
  }

  private diffRun(run: DiffRunJSON): Node {
    const document = this.element.ownerDocument
    if (run.kind === 'same') return document.createTextNode(run.text)
    const element = make(document, run.kind === 'inserted' ? 'ins' : 'del', {}, run.text)
    element.title = this.describeChange(run)
    element.dataset.user = run.user ?? ''
    if (run.user !== null) element.style.setProperty('--author-color', colorForUser(run.user))
    return element
  }

  /** "Inserted by Ada, 5 Jan 2026, 09:30". */
  private describeChange(run: DiffRunJSON): string {
    const who = run.user === null ? 'someone' : this.nameOf(run.user)
    const when = run.time === null ? '' : `, ${formatTime(run.time)}`
    return `${run.kind === 'inserted' ? 'Inserted' : 'Deleted'} by ${who}${when}`
  }

  private async restore(version: VersionJSON, title: string): Promise<void> {
    const history = this.host.history()
    if (history === null) return
    try {
      const changes = await history.restoreVersion(version.id)
      this.say(
        changes.length === 0
          ? `The text already reads as “${title}”.`
          : `Restored “${title}”. Undo takes it back.`,
      )
    } catch (error) {
      this.say(`Could not restore the version: ${(error as Error).message}`)
      return
    }
    await this.refresh()
  }

  /** Shows a preview or a diff under the list and moves the focus to its heading. */
  private showResult(heading: string, summary: string, ...body: HTMLElement[]): void {
    const document = this.element.ownerDocument
    const title = make(document, 'h3', { className: 'history-subtitle', tabIndex: -1 }, heading)
    this.result.replaceChildren(
      title,
      make(document, 'p', { className: 'history-summary' }, summary),
      ...body,
    )
    this.result.hidden = false
    title.focus()
  }

  private say(text: string): void {
    this.status.textContent = text
  }
}

/**
 * Adds the "History" toggle button to `toolbar`; `toggle` opens or closes the panel.
 *
 * @example const button = historyButton(toolbar, () => panel.toggle(button))
 */
export const historyButton = (toolbar: HTMLElement, toggle: () => void): HTMLButtonElement => {
  const button = make(
    toolbar.ownerDocument,
    'button',
    {
      type: 'button',
      className: 'tool',
      title: 'Versions and who wrote what',
    },
    'History',
  )
  button.dataset.command = 'history:toggle'
  button.setAttribute('aria-expanded', 'false')
  button.addEventListener('click', toggle)
  toolbar.append(button)
  return button
}
