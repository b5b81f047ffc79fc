/**
 * Who the person at this browser is, as others see them: a name and a color, editable and
 * remembered in localStorage (shared by the browser's tabs).
 */
import type { CollabUser } from '@tandem/collab'

const STORAGE_KEY = 'tandem.playground.user'

/** Colors that read well as carets and, lightened, as selection highlights on white. */
export const USER_COLORS = [
  '#e11d48',
  '#7c3aed',
  '#2563eb',
  '#0891b2',
  '#059669',
  '#ca8a04',
  '#ea580c',
  '#db2777',
] as const

const NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Radia']

/** The slice of `Storage` this module needs. */
export interface UserStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

const HEX_COLOR = /^#[0-9a-f]{6}$/i

/** `color` mixed with white, for the highlight of this user's selections. */
export const lightColor = (color: string): string => `${color}33`

/** Who this browser's user is. The id, made once, lets the server keep their place. */
export interface PlaygroundUser {
  name: string
  color: string
  readonly id: string
}

/** A user as `connect` publishes them. */
export const collabUser = ({ name, color, id }: PlaygroundUser): CollabUser => ({
  name,
  color,
  colorLight: lightColor(color),
  id,
})

/**
 * The remembered user, or a new one (a name and a color picked at random, remembered at once).
 *
 * @example const { name, color } = loadUser(localStorage)
 */
export const loadUser = (
  storage: UserStorage,
  random: () => number = Math.random,
): PlaygroundUser => {
  try {
    const saved = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as {
      name?: unknown
      color?: unknown
      id?: unknown
    } | null
    if (
      typeof saved?.name === 'string' &&
      saved.name.trim() !== '' &&
      typeof saved.color === 'string' &&
      HEX_COLOR.test(saved.color) &&
      typeof saved.id === 'string' &&
      saved.id !== ''
    ) {
      return { name: saved.name, color: saved.color, id: saved.id }
    }
  } catch {}
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const id = Array.from({ length: 4 }, () => Math.floor(random() * 2 ** 32).toString(36)).join('')
  const user = { name: pick(NAMES), color: pick(USER_COLORS), id }
  saveUser(storage, user)
  return user
}

/** Remembers the user (a blank name or a color that is not `#rrggbb` is not kept). */
export const saveUser = (storage: UserStorage, user: PlaygroundUser): void => {
  if (user.name.trim() === '' || !HEX_COLOR.test(user.color)) return
  try {
    const { name, color, id } = user
    storage.setItem(STORAGE_KEY, JSON.stringify({ name: name.trim(), color, id }))
  } catch {}
}
