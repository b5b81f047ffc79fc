/// <reference lib="dom" />
/**
 * The language picker. The language is part of the document (a key of its `playground` map),
 * so everyone editing it sees the same one; the grammars are served by the app itself, under
 * `/languages/<package>/<path>` (copied there by the build, see vite.config.ts).
 */
import { LANGUAGES, loadLanguage, PLAIN_TEXT, setAssetLocator } from '@tandem/language'
import type * as Y from 'yjs'

/** Where the build puts the language files, under the app's root. */
export const LANGUAGE_ASSETS_PATH = 'languages'

let located = false

/** Tells `@tandem/language` that its files are served by this app. */
const locateAssets = (): void => {
  if (located) return
  located = true
  setAssetLocator(
    ({ pkg, path }) => new URL(`/${LANGUAGE_ASSETS_PATH}/${pkg}/${path}`, location.href),
  )
}

/** The picker's choices: plain text, then every language. */
export const languageChoices = (): { id: string; name: string }[] => [
  { id: PLAIN_TEXT, name: 'Plain text' },
  ...LANGUAGES.map(({ id, name }) => ({ id, name })),
]

/** The document's shared settings. */
const settingsOf = (doc: Y.Doc): Y.Map<unknown> => doc.getMap('playground')

/** The language the document says, or plain text. */
export const documentLanguage = (doc: Y.Doc): string => {
  const id = settingsOf(doc).get('language')
  return typeof id === 'string' && languageChoices().some((choice) => choice.id === id)
    ? id
    : PLAIN_TEXT
}

/**
 * Fills `select` with the languages and keeps it, the document's language and `apply` (which
 * switches the editor) in step until the returned function is called. `apply` runs at once
 * and whenever anyone changes the language; the grammars load in the background.
 */
export const bindLanguagePicker = (
  select: HTMLSelectElement,
  doc: Y.Doc,
  apply: (id: string) => void,
): (() => void) => {
  locateAssets()
  select.replaceChildren(...languageChoices().map(({ id, name }) => new Option(name, id)))
  const show = () => {
    const id = documentLanguage(doc)
    select.value = id
    apply(id)
    if (id !== PLAIN_TEXT) loadLanguage(id).catch(() => {})
  }
  const settings = settingsOf(doc)
  const onPick = () => settings.set('language', select.value)
  settings.observe(show)
  select.addEventListener('change', onPick)
  show()
  return () => {
    settings.unobserve(show)
    select.removeEventListener('change', onPick)
  }
}
