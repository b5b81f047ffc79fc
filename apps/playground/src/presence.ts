/// <reference lib="dom" />
/**
 * The "here now" list: everyone whose awareness state names a user, this browser tab first.
 */
import type { Awareness } from 'y-protocols/awareness'

/** One person in the list. */
export interface Present {
  readonly clientId: number
  readonly name: string
  readonly color: string
  readonly self: boolean
}

/**
 * The people `awareness` knows of, this client first, then by name.
 *
 * @example presentPeople(connection.awareness).map((person) => person.name)
 */
export const presentPeople = (awareness: Awareness): Present[] => {
  const people: Present[] = []
  for (const [clientId, state] of awareness.getStates()) {
    const user = (state as { user?: { name?: unknown; color?: unknown } }).user
    if (typeof user?.name !== 'string') continue
    people.push({
      clientId,
      name: user.name,
      color: typeof user.color === 'string' ? user.color : '#64748b',
      self: clientId === awareness.clientID,
    })
  }
  return people.sort(
    (a, b) =>
      Number(b.self) - Number(a.self) || a.name.localeCompare(b.name) || a.clientId - b.clientId,
  )
}

/** Renders `people` into `list` (one `li` each, with `data-self` on this tab's). */
export const renderPeople = (list: HTMLElement, people: readonly Present[]): void => {
  const items = people.map((person) => {
    const item = document.createElement('li')
    item.className = 'person'
    item.dataset.clientId = String(person.clientId)
    if (person.self) item.dataset.self = ''
    const dot = document.createElement('span')
    dot.className = 'person-dot'
    dot.style.backgroundColor = person.color
    const name = document.createElement('span')
    name.className = 'person-name'
    name.textContent = person.name
    item.append(dot, name)
    if (person.self) {
      const you = document.createElement('span')
      you.className = 'person-you'
      you.textContent = 'you'
      item.append(you)
    }
    return item
  })
  list.replaceChildren(...items)
}

/**
 * Keeps `list` showing who is in `awareness`'s document until the returned function is called.
 */
export const showPresence = (awareness: Awareness, list: HTMLElement): (() => void) => {
  const update = () => renderPeople(list, presentPeople(awareness))
  awareness.on('change', update)
  update()
  return () => awareness.off('change', update)
}
