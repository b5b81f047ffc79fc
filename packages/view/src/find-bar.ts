/// <reference lib="dom" />
/**
 * The find bar: Atom's find-and-replace panel, along the editor's top edge (the text moves
 * down under it, so it covers no match). A find field with
 * regex, match-case, whole-word and in-selection toggles, the count of matches ("2 of 5", in
 * a live region so screen readers hear it), previous and next, a replace field, replace and
 * replace all. The matches are the editor search's markers, drawn as `find-result` highlight
 * decorations (only on the rows on screen, as every decoration is).
 *
 * Keys in the bar, as in Atom: enter finds the next match (shift-enter the previous), F3 and
 * shift-F3 too; enter in the replace field replaces the next match, ctrl-enter replaces all;
 * alt-enter selects every match; ctrl-alt-/ toggles regex, ctrl-shift-c match case; escape
 * closes the bar and gives the editor the focus.
 */
import {
  type Decoration,
  type DisplayMarker,
  EditorSearch,
  type SearchQuery,
  type TextEditor,
} from '@tandem/editor'
import type { Disposable, Range } from '@tandem/text'
import { keystrokeForEvent } from './keymap.js'

/** What the find bar needs from its view. */
export interface FindBarHost {
  readonly editor: TextEditor
  /** Gives the editor the keyboard focus. */
  focusEditor(): void
  /** Keeps the top `pixels` of the view for the bar, so it covers no text (0 gives them back). */
  setTopInset(pixels: number): void
}

type Toggle = 'regex' | 'caseSensitive' | 'wholeWord' | 'inSelection'

const TOGGLES: readonly { option: Toggle; text: string; label: string; keys?: string }[] = [
  { option: 'regex', text: '.*', label: 'Use regular expression', keys: 'Ctrl+Alt+/' },
  { option: 'caseSensitive', text: 'Aa', label: 'Match case', keys: 'Ctrl+Shift+C' },
  { option: 'wholeWord', text: '\u2039w\u203a', label: 'Whole word' },
  { option: 'inSelection', text: '\u2263', label: 'Only in selection' },
]

/**
 * The find bar of one view; made hidden, shown by `show()`.
 *
 * @example const bar = new FindBar({ editor, focusEditor: () => view.focus() }, view.element); bar.show()
 */
export class FindBar {
  /** The bar's element (a `search` landmark). */
  readonly element: HTMLElement
  /** The find field. */
  readonly findInput: HTMLInputElement
  /** The replace field. */
  readonly replaceInput: HTMLInputElement
  /** The count of matches ("2 of 5"), a polite live region. */
  readonly countElement: HTMLElement
  private readonly toggles = new Map<Toggle, HTMLButtonElement>()
  private search: EditorSearch | null = null
  private searchSubscription: Disposable | null = null
  private selectionSubscription: Disposable | null = null
  private decoration: Decoration | null = null
  /** The current match's own decoration, which outlines it apart from the others. */
  private currentDecoration: Decoration | null = null
  private searching: Promise<void> = Promise.resolve()
  private readonly resizeObserver: ResizeObserver | null
  private destroyed = false

  constructor(
    private readonly host: FindBarHost,
    parent: HTMLElement,
  ) {
    const document = parent.ownerDocument
    const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className = '') => {
      const element = document.createElement(tag)
      if (className !== '') element.className = className
      return element
    }
    const button = (text: string, label: string, onClick: () => void, title = label) => {
      const element = make('button')
      element.type = 'button'
      element.textContent = text
      if (text !== label) element.setAttribute('aria-label', label)
      element.title = title
      // Clicks keep the focus where it is (the field), as a toolbar's buttons do.
      element.addEventListener('mousedown', (event) => event.preventDefault())
      element.addEventListener('click', onClick)
      return element
    }
    this.element = make('div', 'tandem-panel tandem-find-bar')
    this.element.setAttribute('role', 'search')
    this.element.setAttribute('aria-label', 'Find and replace')
    this.element.hidden = true

    this.findInput = make('input', 'tandem-find-input')
    this.findInput.type = 'text'
    this.findInput.setAttribute('aria-label', 'Find')
    this.findInput.placeholder = 'Find'
    this.findInput.spellcheck = false
    this.findInput.autocomplete = 'off'
    this.countElement = make('span', 'tandem-find-count')
    this.countElement.setAttribute('role', 'status')
    this.countElement.setAttribute('aria-live', 'polite')
    const findRow = make('div', 'tandem-panel-row')
    findRow.append(this.findInput)
    for (const { option, text, label, keys } of TOGGLES) {
      const toggle = button(
        text,
        label,
        () => this.toggle(option),
        keys ? `${label} (${keys})` : label,
      )
      toggle.className = 'tandem-toggle'
      toggle.setAttribute('aria-pressed', 'false')
      toggle.dataset.option = option
      this.toggles.set(option, toggle)
      findRow.append(toggle)
    }
    findRow.append(
      this.countElement,
      button(
        '\u2191',
        'Previous match',
        () => void this.findPrevious(),
        'Previous match (Shift+F3)',
      ),
      button('\u2193', 'Next match', () => void this.findNext(), 'Next match (F3)'),
      button('\u00d7', 'Close find bar', () => this.hide(), 'Close (Escape)'),
    )

    this.replaceInput = make('input', 'tandem-replace-input')
    this.replaceInput.type = 'text'
    this.replaceInput.setAttribute('aria-label', 'Replace')
    this.replaceInput.placeholder = 'Replace'
    this.replaceInput.spellcheck = false
    this.replaceInput.autocomplete = 'off'
    const replaceRow = make('div', 'tandem-panel-row')
    replaceRow.append(
      this.replaceInput,
      button('Replace', 'Replace', () => void this.replaceNext(), 'Replace the next match (Enter)'),
      button(
        'Replace all',
        'Replace all',
        () => void this.replaceAll(),
        'Replace all (Ctrl+Enter)',
      ),
    )
    this.element.append(findRow, replaceRow)
    parent.append(this.element)

    this.findInput.addEventListener('input', () => void this.runSearch())
    this.element.addEventListener('keydown', (event) => this.keydown(event))
    // A narrow editor wraps the bar's rows: the text moves down by the bar's new height.
    const view = parent.ownerDocument.defaultView
    this.resizeObserver =
      view?.ResizeObserver === undefined
        ? null
        : new view.ResizeObserver(() => {
            if (this.isVisible()) this.host.setTopInset(this.element.offsetHeight)
          })
    this.resizeObserver?.observe(this.element)
  }

  /** Whether the bar is shown. */
  isVisible(): boolean {
    return !this.element.hidden
  }

  /**
   * Shows the bar and focuses its find field (or, with `replace`, the replace field). A
   * selection within one line becomes the text to find, as in Atom.
   */
  show(options: { replace?: boolean } = {}): void {
    if (this.destroyed) return
    const search = this.ensureSearch()
    if (search === null) return
    const selected = this.host.editor.getSelectedText()
    if (selected !== '' && !selected.includes('\n') && selected !== this.findInput.value) {
      this.findInput.value = selected
      void this.runSearch()
    }
    this.element.hidden = false
    this.host.setTopInset(this.element.offsetHeight)
    this.decorate()
    this.updateCount()
    const field = options.replace ? this.replaceInput : this.findInput
    field.focus()
    field.select()
  }

  /** Hides the bar; its highlights go, the query stays for F3. Gives the editor the focus. */
  hide(): void {
    if (this.element.hidden) return
    const hadFocus = this.element.contains(this.element.ownerDocument.activeElement)
    this.element.hidden = true
    this.host.setTopInset(0)
    this.decoration?.destroy()
    this.decoration = null
    this.markCurrent(null)
    this.selectionSubscription?.dispose()
    this.selectionSubscription = null
    if (hadFocus) this.host.focusEditor()
  }

  /** The query the fields and toggles say. */
  getQuery(): SearchQuery {
    const pressed = (option: Toggle) =>
      this.toggles.get(option)?.getAttribute('aria-pressed') === 'true'
    return {
      text: this.findInput.value,
      regex: pressed('regex'),
      caseSensitive: pressed('caseSensitive'),
      wholeWord: pressed('wholeWord'),
      inSelection: pressed('inSelection'),
    }
  }

  /** Sets a search option (the toggle's state) and searches again. */
  setOption(option: Toggle, on: boolean): void {
    this.toggles.get(option)?.setAttribute('aria-pressed', String(on))
    void this.runSearch()
  }

  /**
   * Selects the next match after the cursor; with no text to find yet, shows the bar. Resolves
   * to the match, once the search typed so far has finished.
   */
  async findNext(): Promise<Range | undefined> {
    return this.move((search) => search.findNext())
  }

  /** Selects the previous match before the cursor; with no text to find yet, shows the bar. */
  async findPrevious(): Promise<Range | undefined> {
    return this.move((search) => search.findPrevious())
  }

  /** Replaces the current (or next) match with the replace field's text and selects the next. */
  async replaceNext(): Promise<Range | undefined> {
    const search = this.ensureSearch()
    if (search === null) return undefined
    await this.searching
    if (this.destroyed) return undefined
    const range = search.replaceNext(this.replaceInput.value)
    this.updateCount()
    return range
  }

  /** Replaces every match; resolves to how many were replaced. */
  async replaceAll(): Promise<number> {
    const search = this.ensureSearch()
    if (search === null) return 0
    await this.searching
    if (this.destroyed) return 0
    const count = search.replaceAll(this.replaceInput.value)
    this.updateCount(`Replaced ${count} ${count === 1 ? 'match' : 'matches'}`)
    return count
  }

  /** Selects every match and gives the editor the focus. */
  async selectAllMatches(): Promise<void> {
    const search = this.ensureSearch()
    if (search === null) return
    await this.searching
    if (this.destroyed) return
    search.selectAllMatches()
    this.updateCount()
    this.host.focusEditor()
  }

  /**
   * Makes the selection (or the word at the cursor) the text to find, without showing the bar.
   * False when there is nothing to use.
   */
  useSelectionAsFindPattern(): boolean {
    const text = this.selectedTextOrWord()
    if (text === '' || this.ensureSearch() === null) return false
    this.findInput.value = text
    void this.runSearch()
    return true
  }

  /** Makes the selected text the replacement. False when nothing is selected. */
  useSelectionAsReplacePattern(): boolean {
    const text = this.host.editor.getSelectedText()
    if (text === '') return false
    this.replaceInput.value = text
    return true
  }

  /** Removes the bar and ends its search. Safe twice. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.resizeObserver?.disconnect()
    this.decoration?.destroy()
    this.currentDecoration?.destroy()
    this.selectionSubscription?.dispose()
    this.searchSubscription?.dispose()
    this.search?.destroy()
    this.element.remove()
  }

  /** The search, made on first use (a view that never finds keeps no match layer). */
  private ensureSearch(): EditorSearch | null {
    if (this.search === null && !this.destroyed) {
      this.search = new EditorSearch(this.host.editor)
      this.searchSubscription = this.search.onDidUpdate(() => this.updateCount())
    }
    return this.search
  }

  private async move(
    step: (search: EditorSearch) => Range | undefined,
  ): Promise<Range | undefined> {
    const search = this.ensureSearch()
    if (search === null) return undefined
    if (this.findInput.value === '') {
      this.show()
      return undefined
    }
    await this.searching
    // The view may have gone while the search finished.
    if (this.destroyed) return undefined
    const range = step(search)
    this.updateCount()
    return range
  }

  private toggle(option: Toggle): void {
    const toggle = this.toggles.get(option)
    this.setOption(option, toggle?.getAttribute('aria-pressed') !== 'true')
  }

  private runSearch(): Promise<void> {
    const search = this.ensureSearch()
    if (search === null) return Promise.resolve()
    const query = this.getQuery()
    const done = search.search(query).then(
      () => this.updateCount(),
      () => this.updateCount(),
    )
    this.searching = done
    return done
  }

  private decorate(): void {
    const search = this.search
    if (search === null || this.decoration !== null) return
    this.decoration = this.host.editor.decorateMarkerLayer(search.markerLayer, {
      type: 'highlight',
      class: 'find-result',
    })
    this.selectionSubscription = this.host.editor.onDidChangeSelectionRange(() =>
      this.updateCount(),
    )
  }

  /** Shows "n of m", the count, "No results" or the query's error. */
  private updateCount(message?: string): void {
    const search = this.search
    if (search === null || this.destroyed) return
    const error = search.getError()
    const count = search.getMatchCount()
    const index = search.getCurrentMatchIndex()
    let text: string
    if (message !== undefined) text = message
    else if (error !== undefined) text = error
    else if (this.findInput.value === '') text = ''
    else if (count === 0) text = 'No results'
    else if (index >= 0) text = `${index + 1} of ${count}`
    else text = `${count} ${count === 1 ? 'result' : 'results'}`
    if (this.decoration !== null) this.markCurrent(search.getCurrentMatch() ?? null)
    this.countElement.classList.toggle('is-error', error !== undefined && message === undefined)
    this.findInput.setAttribute('aria-invalid', String(error !== undefined))
    if (this.countElement.textContent !== text) this.countElement.textContent = text
  }

  /** Outlines `marker` as the current match (none for null). */
  private markCurrent(marker: DisplayMarker | null): void {
    if (this.currentDecoration?.getMarker() === marker && marker !== null) return
    this.currentDecoration?.destroy()
    this.currentDecoration =
      marker === null
        ? null
        : this.host.editor.decorateMarker(marker, {
            type: 'highlight',
            class: 'find-result current-result',
          })
  }

  private selectedTextOrWord(): string {
    const { editor } = this.host
    const selected = editor.getSelectedText()
    if (selected !== '') return selected
    const cursor = editor.getLastCursor()
    return editor.getTextInBufferRange(cursor.getCurrentWordBufferRange())
  }

  /** Keys anywhere in the bar; enter and its kin only in the fields (a button takes its own). */
  private keydown(event: KeyboardEvent): void {
    const keystroke = keystrokeForEvent(event)
    const field =
      event.target === this.findInput
        ? 'find'
        : event.target === this.replaceInput
          ? 'replace'
          : null
    if (field === null && keystroke?.endsWith('enter')) return
    let handled = true
    switch (keystroke) {
      case 'enter':
        void (field === 'find' ? this.findNext() : this.replaceNext())
        break
      case 'shift-enter':
        void this.findPrevious()
        break
      case 'ctrl-enter':
        void (field === 'replace' ? this.replaceAll() : this.findNext())
        break
      case 'alt-enter':
        void this.selectAllMatches()
        break
      case 'f3':
        void this.findNext()
        break
      case 'shift-f3':
        void this.findPrevious()
        break
      case 'ctrl-alt-/':
        this.toggle('regex')
        break
      case 'ctrl-shift-c':
        this.toggle('caseSensitive')
        break
      case 'escape':
        this.hide()
        break
      default:
        handled = false
    }
    if (handled) {
      event.preventDefault()
      event.stopPropagation()
    }
  }
}
