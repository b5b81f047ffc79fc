/// <reference lib="dom" />
/**
 * The command palette (ctrl-shift-p, as in Atom): every command of the editor with its key
 * bindings, filtered as you type, the chosen one run on the editor. A combobox over a listbox:
 * up and down (page up and down, home and end) move the active option, enter runs it, escape
 * closes the palette and gives the editor back the focus.
 */

/** A command as the palette lists it. */
export interface PaletteCommand {
  /** The command's name (`editor:move-line-up`). */
  readonly name: string
  /** Its title (`Editor: Move Line Up`). */
  readonly title: string
  /** Its key bindings as people read them (`Ctrl+Up`, `Ctrl+K Ctrl+U`). */
  readonly keys: readonly string[]
}

/** What the palette needs from the page. */
export interface PaletteSource {
  /** The commands to list. */
  commands(): readonly PaletteCommand[]
  /** Runs a command. */
  run(name: string): void
  /** Gives the focus back to where it was before the palette opened (the editor). */
  restoreFocus(): void
}

const WORD_SEPARATORS = /[-:]/g

/**
 * A command's title as Atom writes it: the package, a colon, the words capitalized.
 *
 * @example commandTitle('editor:move-line-up') // => 'Editor: Move Line Up'
 */
export const commandTitle = (name: string): string => {
  const colon = name.indexOf(':')
  const words = (part: string) =>
    part
      .split('-')
      .filter((word) => word !== '')
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join(' ')
  return colon === -1
    ? words(name)
    : `${words(name.slice(0, colon))}: ${words(name.slice(colon + 1))}`
}

/**
 * How well `query` matches `text`, or null when it does not: every character of the query in
 * order (case ignored); whole-word starts and runs of characters score higher, as fuzzy
 * finders rank.
 */
const fuzzyScore = (query: string, text: string): number | null => {
  const haystack = text.toLowerCase()
  let score = 0
  let from = 0
  let run = 0
  for (const character of query.toLowerCase()) {
    if (character === ' ') continue
    const at = haystack.indexOf(character, from)
    if (at === -1) return null
    const wordStart = at === 0 || /[\s:-]/.test(haystack[at - 1]!)
    run = at === from ? run + 1 : 0
    score += 1 + (wordStart ? 3 : 0) + run * 2 - Math.min(at - from, 10) * 0.1
    from = at + 1
  }
  return score
}

/** How well `query` names key binding `keys`: exactly, or a part of it; null when not. */
const keyScore = (query: string, keys: string): number | null => {
  const wanted = query.toLowerCase().replaceAll(' ', '')
  const binding = keys.toLowerCase().replaceAll(' ', '')
  if (binding === wanted) return 1000
  return wanted.length > 1 && binding.includes(wanted) ? 500 : null
}

/**
 * The commands matching `query` (by title, name or key binding), best first; all of them, in
 * their order, for an empty query.
 *
 * @example filterCommands(commands, 'mlu')[0]?.name // => 'editor:move-line-up'
 */
export const filterCommands = (
  commands: readonly PaletteCommand[],
  query: string,
): PaletteCommand[] => {
  const trimmed = query.trim()
  if (trimmed === '') return [...commands]
  const scored: { command: PaletteCommand; score: number; index: number }[] = []
  commands.forEach((command, index) => {
    const scores = [
      fuzzyScore(trimmed, command.title),
      fuzzyScore(trimmed, command.name.replace(WORD_SEPARATORS, ' ')),
      ...command.keys.map((keys) => keyScore(trimmed, keys)),
    ].filter((score): score is number => score !== null)
    if (scores.length > 0) scored.push({ command, score: Math.max(...scores), index })
  })
  scored.sort((a, b) => b.score - a.score || a.index - b.index)
  return scored.map(({ command }) => command)
}

let palettes = 0

/**
 * The palette, added hidden to `parent`.
 *
 * @example const palette = new CommandPalette(document.body, source); palette.open()
 */
export class CommandPalette {
  /** The palette's dialog element. */
  readonly element: HTMLElement
  /** The filter field (a combobox). */
  readonly input: HTMLInputElement
  /** The list of commands (a listbox). */
  readonly list: HTMLUListElement
  private readonly empty: HTMLElement
  private readonly id = `palette-${++palettes}`
  private shown: PaletteCommand[] = []
  private active = 0

  constructor(
    parent: HTMLElement,
    private readonly source: PaletteSource,
  ) {
    const document = parent.ownerDocument
    this.element = document.createElement('div')
    this.element.className = 'palette'
    this.element.setAttribute('role', 'dialog')
    this.element.setAttribute('aria-modal', 'true')
    this.element.setAttribute('aria-label', 'Command palette')
    this.element.hidden = true
    this.input = document.createElement('input')
    this.input.className = 'palette-input'
    this.input.type = 'text'
    this.input.placeholder = 'Type a command, e.g. move line up'
    this.input.spellcheck = false
    this.input.autocomplete = 'off'
    this.input.setAttribute('role', 'combobox')
    this.input.setAttribute('aria-label', 'Command')
    this.input.setAttribute('aria-autocomplete', 'list')
    this.input.setAttribute('aria-expanded', 'true')
    this.input.setAttribute('aria-controls', `${this.id}-list`)
    this.list = document.createElement('ul')
    this.list.className = 'palette-list'
    this.list.id = `${this.id}-list`
    this.list.setAttribute('role', 'listbox')
    this.list.setAttribute('aria-label', 'Commands')
    this.empty = document.createElement('p')
    this.empty.className = 'palette-empty'
    this.empty.textContent = 'No command matches.'
    this.empty.hidden = true
    this.element.append(this.input, this.list, this.empty)
    parent.append(this.element)

    this.input.addEventListener('input', () => this.render())
    this.input.addEventListener('keydown', (event) => this.keydown(event))
    this.input.addEventListener('blur', (event) => {
      if (!this.element.contains(event.relatedTarget as Node | null)) this.close(false)
    })
    // A click picks an option without taking the focus from the field first.
    this.list.addEventListener('mousedown', (event) => event.preventDefault())
    this.list.addEventListener('click', (event) => {
      const option = (event.target as Element).closest<HTMLElement>('[role="option"]')
      if (option?.dataset.index !== undefined) this.run(Number(option.dataset.index))
    })
  }

  /** Whether the palette is open. */
  isOpen(): boolean {
    return !this.element.hidden
  }

  /** Opens the palette with every command listed and the filter field focused. */
  open(): void {
    this.element.hidden = false
    this.input.value = ''
    this.render()
    this.input.focus()
  }

  /** Opens the palette, or closes it when open. */
  toggle(): void {
    if (this.isOpen()) this.close(true)
    else this.open()
  }

  /** Closes the palette; with `restoreFocus` the editor gets the focus back. */
  close(restoreFocus: boolean): void {
    if (this.element.hidden) return
    this.element.hidden = true
    this.list.replaceChildren()
    if (restoreFocus) this.source.restoreFocus()
  }

  /** The commands listed now, in order. */
  shownCommands(): readonly PaletteCommand[] {
    return this.shown
  }

  private render(): void {
    this.shown = filterCommands(this.source.commands(), this.input.value)
    this.active = 0
    const document = this.element.ownerDocument
    this.list.replaceChildren(
      ...this.shown.map((command, index) => {
        const option = document.createElement('li')
        option.className = 'palette-option'
        option.id = `${this.id}-option-${index}`
        option.dataset.index = String(index)
        option.dataset.command = command.name
        option.setAttribute('role', 'option')
        option.setAttribute('aria-selected', 'false')
        const title = document.createElement('span')
        title.className = 'palette-title'
        title.textContent = command.title
        option.append(title)
        for (const keys of command.keys) {
          const kbd = document.createElement('kbd')
          kbd.textContent = keys
          option.append(kbd)
        }
        if (command.keys.length > 0) {
          option.setAttribute('aria-label', `${command.title}, ${command.keys.join(' or ')}`)
        }
        return option
      }),
    )
    this.empty.hidden = this.shown.length > 0
    this.setActive(0)
  }

  private setActive(index: number): void {
    const count = this.shown.length
    const previous = this.list.children[this.active]
    previous?.setAttribute('aria-selected', 'false')
    previous?.classList.remove('is-active')
    if (count === 0) {
      this.input.removeAttribute('aria-activedescendant')
      return
    }
    this.active = ((index % count) + count) % count
    const option = this.list.children[this.active] as HTMLElement
    option.setAttribute('aria-selected', 'true')
    option.classList.add('is-active')
    option.scrollIntoView({ block: 'nearest' })
    this.input.setAttribute('aria-activedescendant', option.id)
  }

  private run(index: number): void {
    const command = this.shown[index]
    if (command === undefined) return
    this.close(true)
    this.source.run(command.name)
  }

  private keydown(event: KeyboardEvent): void {
    const page = 8
    switch (event.key) {
      case 'ArrowDown':
        this.setActive(this.active + 1)
        break
      case 'ArrowUp':
        this.setActive(this.active - 1)
        break
      case 'PageDown':
        this.setActive(Math.min(this.shown.length - 1, this.active + page))
        break
      case 'PageUp':
        this.setActive(Math.max(0, this.active - page))
        break
      case 'Enter':
        this.run(this.active)
        break
      case 'Escape':
        this.close(true)
        break
      default:
        return
    }
    event.preventDefault()
    event.stopPropagation()
  }
}

/**
 * Opens (or closes) `palette` on ctrl-shift-p anywhere in `window`, the editor included (its
 * keymap leaves the key alone). Returns a function that stops listening.
 *
 * @example const unbind = bindPaletteKey(window, palette)
 */
export const bindPaletteKey = (window: Window, palette: CommandPalette): (() => void) => {
  const onKeydown = (event: KeyboardEvent) => {
    const modifiers = event.ctrlKey && event.shiftKey && !event.altKey && !event.metaKey
    if (!modifiers || event.key.toLowerCase() !== 'p') return
    event.preventDefault()
    event.stopPropagation()
    palette.toggle()
  }
  window.addEventListener('keydown', onKeydown, { capture: true })
  return () => window.removeEventListener('keydown', onKeydown, { capture: true })
}
