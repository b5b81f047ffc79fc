/// <reference lib="dom" />
/**
 * The "Suggestions" list of the side panel: the changes programs propose on the open
 * document, oldest first, each with the program's name and colour, its message (or what it
 * would change), and Accept and Reject buttons, disabled for a reader. It follows the
 * proposals as they come, move and go; the editor shows the same proposals in place.
 */

/** A proposal as the list shows it (`connection.proposals.list()` gives these). */
export interface Suggestion {
  readonly id: string
  readonly name: string
  readonly color: string | null
  readonly message: string | null
  readonly changes: readonly { readonly insert: string; readonly replaced: string }[]
}

/** Where the proposals come from and decisions go (`connection.proposals`). */
export interface SuggestionSource {
  list(): readonly Suggestion[]
  onDidChange(callback: () => void): { dispose(): void }
  accept(id: string): Promise<unknown>
  reject(id: string): Promise<unknown>
}

/** What the list needs of the page. */
export interface SuggestionOptions {
  /** Whether this person may accept and reject. */
  readonly canReview: () => boolean
  /** Tells the person something went wrong. */
  readonly notify: (text: string) => void
  /** Gives the editor the focus (when the suggestion whose button had it goes). */
  readonly focusEditor: () => void
}

/** The longest stretch of text quoted in a summary. */
const QUOTE_LENGTH = 24

const quote = (text: string): string => {
  const line = text.replace(/\n/g, '⏎')
  return `“${line.length > QUOTE_LENGTH ? `${line.slice(0, QUOTE_LENGTH - 1)}…` : line}”`
}

/**
 * What a proposal would do, in a few words: `“teh” → “the”`, `adds “x”`, `removes “y”`, or
 * how many changes it makes.
 *
 * @example summarize([{ replaced: 'teh', insert: 'the' }]) // => '“teh” → “the”'
 */
export const summarize = (changes: Suggestion['changes']): string => {
  if (changes.length !== 1) return `${changes.length} changes`
  const { replaced, insert } = changes[0]!
  if (replaced === '') return `adds ${quote(insert)}`
  if (insert === '') return `removes ${quote(replaced)}`
  return `${quote(replaced)} → ${quote(insert)}`
}

/** The list shown: `refresh` after `canReview` changed, `dispose` to empty it and stop. */
export interface SuggestionList {
  refresh(): void
  dispose(): void
}

/**
 * Keeps `list` showing `source`'s proposals until disposed.
 *
 * @example const suggestions = showSuggestions(connection.proposals, list, { canReview, notify })
 */
export const showSuggestions = (
  source: SuggestionSource,
  list: HTMLElement,
  options: SuggestionOptions,
): SuggestionList => {
  const busy = new Set<string>()
  const decide = async (suggestion: Suggestion, decision: 'accept' | 'reject') => {
    busy.add(suggestion.id)
    render()
    try {
      await (decision === 'accept' ? source.accept(suggestion.id) : source.reject(suggestion.id))
    } catch (error) {
      options.notify(
        `Could not ${decision} ${suggestion.name}’s suggestion: ${(error as Error).message}`,
      )
    } finally {
      busy.delete(suggestion.id)
      render()
    }
  }
  const render = () => {
    // A button keeps the focus across renders while its suggestion stays; else the editor gets it.
    const focused = list.contains(document.activeElement)
      ? (document.activeElement as HTMLElement)
      : null
    const focusedId = focused?.closest<HTMLElement>('li.suggestion')?.dataset.proposal
    const focusedClass = focused?.className
    fill()
    if (focused === null) return
    const again = [...list.querySelectorAll<HTMLElement>('li.suggestion')]
      .find((item) => item.dataset.proposal === focusedId)
      ?.querySelector<HTMLElement>(`[class="${focusedClass}"]`)
    if (again) again.focus()
    else options.focusEditor()
  }
  const fill = () => {
    const suggestions = source.list()
    const canReview = options.canReview()
    if (suggestions.length === 0) {
      const empty = document.createElement('li')
      empty.className = 'suggestion-empty'
      empty.textContent = 'No suggestions'
      list.replaceChildren(empty)
      return
    }
    list.replaceChildren(
      ...suggestions.map((suggestion) => {
        const item = document.createElement('li')
        item.className = 'suggestion'
        item.dataset.proposal = suggestion.id
        const author = document.createElement('div')
        author.className = 'suggestion-author'
        const dot = document.createElement('span')
        dot.className = 'person-dot'
        dot.style.backgroundColor = suggestion.color ?? '#7a3db8'
        const name = document.createElement('span')
        name.className = 'person-name'
        name.textContent = suggestion.name
        author.append(dot, name)
        const what = document.createElement('p')
        what.className = 'suggestion-message'
        what.textContent = suggestion.message ?? summarize(suggestion.changes)
        if (suggestion.message !== null) what.title = summarize(suggestion.changes)
        const buttons = document.createElement('div')
        buttons.className = 'suggestion-buttons'
        for (const decision of ['accept', 'reject'] as const) {
          const button = document.createElement('button')
          button.type = 'button'
          button.className = `button suggestion-${decision}`
          button.textContent = decision === 'accept' ? 'Accept' : 'Reject'
          button.setAttribute(
            'aria-label',
            `${decision === 'accept' ? 'Accept' : 'Reject'} ${suggestion.name}’s suggestion`,
          )
          // While a decision is out the buttons only say so: a disabled one would drop the focus.
          button.disabled = !canReview
          if (busy.has(suggestion.id)) button.setAttribute('aria-disabled', 'true')
          if (!canReview) button.title = 'Your token lets you read this document, not change it'
          button.addEventListener('click', () => {
            if (!busy.has(suggestion.id)) void decide(suggestion, decision)
          })
          buttons.append(button)
        }
        item.append(author, what, buttons)
        return item
      }),
    )
  }
  const subscription = source.onDidChange(render)
  render()
  return {
    refresh: render,
    dispose: () => {
      subscription.dispose()
      list.replaceChildren()
    },
  }
}
