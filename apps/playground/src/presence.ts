/// <reference lib="dom" />
/**
 * The "here now" list: everyone whose awareness state names a user, this browser tab first.
 * With following, each other person's name is a toggle button that follows them, a bar says
 * whom this tab follows (with a button to stop), and this tab's entry says who follows it.
 */
import type { FollowingChangeEvent, FollowStopReason } from '@tandem/collab'
import type { Awareness } from 'y-protocols/awareness'

/** One person in the list. */
export interface Present {
  readonly clientId: number
  readonly name: string
  readonly color: string
  readonly self: boolean
  /** A program (its awareness user says `agent: true`), shown with an "agent" badge. */
  readonly agent: boolean
  /** The user id its awareness names, or null. */
  readonly id: string | null
}

/** Undoing a program's last change, as a connection's `programs` offers it. */
export interface ProgramUndo {
  /** Undoes the last change of the program with user id `user` not undone yet. */
  undoLast(user: string): Promise<unknown>
  /** Says how it went. */
  readonly notify: (text: string) => void
}

/** What a subscription returns. */
interface Subscription {
  dispose(): void
}

/** Following, as a connection offers it (`CollabConnection` has all of it). */
export interface FollowControl {
  readonly following: number | null
  follow(clientId: number): void
  unfollow(): void
  followers(): number[]
  onDidChangeFollowing(callback: (event: FollowingChangeEvent) => void): Subscription
  onDidChangeFollowers(callback: (followers: readonly number[]) => void): Subscription
}

/** Who this tab follows and who follows it, for `renderPeople`. */
export interface FollowState {
  /** The client id followed, or null. */
  readonly following: number | null
  /** The client ids following this tab. */
  readonly followers: readonly number[]
  /** Follows `clientId`, or stops following it when it is followed. */
  readonly toggle: (clientId: number) => void
}

/**
 * The people `awareness` knows of, this client first, then by name.
 *
 * @example presentPeople(connection.awareness).map((person) => person.name)
 */
export const presentPeople = (awareness: Awareness): Present[] => {
  const people: Present[] = []
  for (const [clientId, state] of awareness.getStates()) {
    const user = (
      state as { user?: { name?: unknown; color?: unknown; agent?: unknown; id?: unknown } }
    ).user
    if (typeof user?.name !== 'string') continue
    people.push({
      clientId,
      name: user.name,
      color: typeof user.color === 'string' ? user.color : '#64748b',
      self: clientId === awareness.clientID,
      agent: user.agent === true,
      id: typeof user.id === 'string' ? user.id : null,
    })
  }
  return people.sort(
    (a, b) =>
      Number(b.self) - Number(a.self) || a.name.localeCompare(b.name) || a.clientId - b.clientId,
  )
}

/** Names as a list: `Ada`, `Ada and Bob`, `Ada, Bob and Cleo`. */
const listOfNames = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`

/**
 * Renders `people` into `list` (one `li` each, with `data-self` on this tab's). With `follow`,
 * another person's dot and name are a toggle button following them (`aria-pressed`), and this
 * tab's entry says who follows it.
 */
export const renderPeople = (
  list: HTMLElement,
  people: readonly Present[],
  follow?: FollowState,
  programs?: ProgramUndo,
): void => {
  const nameOf = new Map(people.map((person) => [person.clientId, person.name]))
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
    if (follow !== undefined && !person.self) {
      const followed = follow.following === person.clientId
      const button = document.createElement('button')
      button.type = 'button'
      button.className = 'person-follow'
      button.setAttribute('aria-pressed', String(followed))
      button.title = followed ? `Stop following ${person.name}` : `Follow ${person.name}`
      button.append(dot, name)
      button.addEventListener('click', () => follow.toggle(person.clientId))
      item.append(button)
    } else {
      item.append(dot, name)
    }
    if (person.agent) {
      const badge = document.createElement('span')
      badge.className = 'person-agent'
      badge.textContent = 'agent'
      item.append(badge)
      const id = person.id
      if (programs !== undefined && id !== null) {
        const actions = document.createElement('span')
        actions.className = 'person-actions'
        actions.append(undoButton(person.name, id, programs))
        item.append(actions)
      }
    }
    if (person.self) {
      const you = document.createElement('span')
      you.className = 'person-you'
      you.textContent = 'you'
      item.append(you)
      const followers = (follow?.followers ?? []).map((id) => nameOf.get(id) ?? `peer ${id}`)
      if (followers.length > 0) {
        const followedBy = document.createElement('span')
        followedBy.className = 'person-followers'
        followedBy.textContent = `followed by ${listOfNames(followers)}`
        item.append(followedBy)
      }
    }
    return item
  })
  list.replaceChildren(...items)
}

/** A button that undoes the last change of program `user` (named `name`), as this user. */
const undoButton = (name: string, user: string, programs: ProgramUndo): HTMLButtonElement => {
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'person-undo'
  button.textContent = 'Undo last change'
  button.title = `Undo ${name}’s last change`
  button.addEventListener('click', () => {
    button.disabled = true
    programs
      .undoLast(user)
      .then(
        () => programs.notify(`Undid ${name}’s last change.`),
        (error: unknown) =>
          programs.notify(
            `Could not undo ${name}’s last change: ${error instanceof Error ? error.message : error}`,
          ),
      )
      .finally(() => {
        button.disabled = false
      })
  })
  return button
}

/** Why following stopped, as the notice says it. */
const STOP_REASONS: Record<Exclude<FollowStopReason, 'unfollow'>, string> = {
  edit: 'you edited',
  selection: 'you moved your cursor',
  scroll: 'you scrolled',
  'peer-left': 'they left',
}

/** Where following is shown: the bar saying whom this tab follows, and a notice for stops. */
export interface FollowDisplay {
  readonly control: FollowControl
  /** Holds "Following Ada" and a button to stop; hidden while following nobody. */
  readonly bar: HTMLElement
  /** Tells the user why following stopped (they did not stop it themselves). */
  readonly notify: (text: string) => void
}

/** Shows whom this tab follows in `bar`, with a button that stops it. */
const renderFollowing = (bar: HTMLElement, name: string | null, stop: () => void): void => {
  bar.hidden = name === null
  if (name === null) {
    bar.replaceChildren()
    return
  }
  const label = document.createElement('span')
  label.className = 'following-label'
  label.textContent = `Following ${name}`
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'following-stop'
  button.textContent = 'Stop'
  button.title = `Stop following ${name}`
  button.addEventListener('click', stop)
  bar.replaceChildren(label, button)
}

/**
 * Keeps `list` showing who is in `awareness`'s document (and, with `follow`, who follows whom;
 * with `programs`, a button to undo each program's last change) until the returned function is
 * called.
 */
export const showPresence = (
  awareness: Awareness,
  list: HTMLElement,
  follow?: FollowDisplay,
  programs?: ProgramUndo,
): (() => void) => {
  /** The names of everyone seen, so that a notice can name someone who has just left. */
  const names = new Map<number, string>()
  const control = follow?.control
  const state = (): FollowState | undefined =>
    control === undefined
      ? undefined
      : {
          following: control.following,
          followers: control.followers(),
          toggle: (clientId) =>
            control.following === clientId ? control.unfollow() : control.follow(clientId),
        }
  let shown = ''
  const update = () => {
    const people = presentPeople(awareness)
    for (const person of people) names.set(person.clientId, person.name)
    const follows = state()
    // Carets move all the time; the list changes only with who is here and who follows whom,
    // and is drawn again only then, so a focused button stays put.
    const key = JSON.stringify([people, follows?.following, follows?.followers])
    if (key === shown) return
    shown = key
    const focused = list.ownerDocument.activeElement?.closest<HTMLElement>('.person')
    const focusedId = focused && list.contains(focused) ? focused.dataset.clientId : undefined
    renderPeople(list, people, follows, programs)
    if (focusedId !== undefined) {
      list.querySelector<HTMLElement>(`.person[data-client-id="${focusedId}"] button`)?.focus()
    }
    if (follow !== undefined && control !== undefined) {
      const followed = control.following
      renderFollowing(
        follow.bar,
        followed === null ? null : (names.get(followed) ?? `peer ${followed}`),
        () => control.unfollow(),
      )
    }
  }
  awareness.on('change', update)
  const subscriptions = [
    control?.onDidChangeFollowers(update),
    control?.onDidChangeFollowing(({ previous, reason }) => {
      update()
      if (reason === null || reason === 'unfollow' || previous === null) return
      const name = names.get(previous) ?? `peer ${previous}`
      follow?.notify(`Stopped following ${name}: ${STOP_REASONS[reason]}.`)
    }),
  ]
  update()
  return () => {
    awareness.off('change', update)
    for (const subscription of subscriptions) subscription?.dispose()
  }
}
