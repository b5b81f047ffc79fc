/// <reference lib="dom" />
/**
 * The view's two themes, light and dark, as CSS custom properties on the editor element,
 * and the rules that colour Atom's `syntax--` classes with them. By default an editor follows
 * the system's `prefers-color-scheme`; a class on the element pins one theme.
 *
 * The syntax rules have no specificity (`:where`), so any rule of an application's own
 * style sheet wins over them, wherever it comes in the document.
 */

/** Which theme an editor shows: `auto` follows the system's light or dark preference. */
export type EditorTheme = 'light' | 'dark' | 'auto'

/** The themes a view accepts. */
export const EDITOR_THEMES: readonly EditorTheme[] = ['light', 'dark', 'auto']

/**
 * The colours of one theme, by custom property name (without the `--tandem-` prefix). The
 * `syntax-` ones colour tokens; the others colour the editor around them.
 */
export type ThemePalette = Readonly<Record<string, string>>

/** The light theme. */
export const LIGHT_THEME: ThemePalette = {
  background: '#fbfbfa',
  text: '#1f2430',
  'gutter-background': '#f1f1ee',
  'gutter-border': '#dcdcd6',
  'gutter-text': '#666b75',
  'gutter-current': '#1f2430',
  'gutter-current-background': '#e6e6e1',
  selection: '#bcd5f7',
  'selection-unfocused': '#dadfe7',
  caret: '#1a56b0',
  fold: '#e3e4df',
  'fold-text': '#4a5260',
  'find-match': '#f3dc8a',
  'find-match-border': '#c99a06',
  'bracket-match': '#7d8594',
  'panel-background': '#f4f4f1',
  'panel-border': '#c9cac3',
  'panel-field': '#ffffff',
  'panel-accent': '#1a56b0',
  'panel-error': '#b4233a',
  'syntax-keyword': '#b4233a',
  'syntax-string': '#2d6a1f',
  'syntax-comment': '#5f6670',
  'syntax-number': '#1c5fb0',
  'syntax-function': '#7a3db8',
  'syntax-variable': '#8a4a06',
  'syntax-type': '#0f6e78',
  'syntax-punctuation': '#4a5260',
  'syntax-tag': '#1d6f3a',
  'syntax-attribute': '#8c3c84',
  'syntax-regexp': '#a33f00',
}

/** The dark theme. */
export const DARK_THEME: ThemePalette = {
  background: '#1c1f26',
  text: '#d8dce4',
  'gutter-background': '#20242c',
  'gutter-border': '#2e333d',
  'gutter-text': '#8a919e',
  'gutter-current': '#e6e9ef',
  'gutter-current-background': '#2a2f39',
  selection: '#34496b',
  'selection-unfocused': '#2f3540',
  caret: '#8cb8ff',
  fold: '#353b47',
  'fold-text': '#c4cad4',
  'find-match': '#5c4d1a',
  'find-match-border': '#c9a53c',
  'bracket-match': '#9aa3b2',
  'panel-background': '#252a33',
  'panel-border': '#3a404c',
  'panel-field': '#1c1f26',
  'panel-accent': '#8cb8ff',
  'panel-error': '#f08a9b',
  'syntax-keyword': '#f08a9b',
  'syntax-string': '#a6d98a',
  'syntax-comment': '#8e97a6',
  'syntax-number': '#7fb6f5',
  'syntax-function': '#c9a2f2',
  'syntax-variable': '#eab67a',
  'syntax-type': '#6fd1cf',
  'syntax-punctuation': '#aab2c0',
  'syntax-tag': '#7fd69a',
  'syntax-attribute': '#e59ad8',
  'syntax-regexp': '#f5a36a',
}

/** The class that pins an editor element to `theme` (none for `auto`). */
const themeClass = (theme: 'light' | 'dark') => `tandem-theme-${theme}`

const declarations = (palette: ThemePalette): string =>
  Object.entries(palette)
    .map(([name, value]) => `  --tandem-${name}: ${value};`)
    .join('\n')

/**
 * Which colour each kind of token gets, in rising order: a later rule wins over an earlier one
 * on a token that has both classes (a quote is punctuation inside a string: it is a string).
 */
const SYNTAX_RULES: readonly [selector: string, property: string, extra?: string][] = [
  ['.syntax--variable', 'variable'],
  ['.syntax--entity.syntax--name.syntax--function, .syntax--support.syntax--function', 'function'],
  [
    '.syntax--entity.syntax--name.syntax--type, .syntax--entity.syntax--name.syntax--class, .syntax--entity.syntax--other.syntax--inherited-class, .syntax--support.syntax--type, .syntax--support.syntax--class',
    'type',
  ],
  ['.syntax--entity.syntax--name.syntax--tag', 'tag'],
  ['.syntax--entity.syntax--other.syntax--attribute-name', 'attribute'],
  ['.syntax--punctuation, .syntax--meta.syntax--brace', 'punctuation'],
  ['.syntax--keyword, .syntax--storage', 'keyword'],
  ['.syntax--keyword.syntax--operator', 'punctuation'],
  ['.syntax--constant', 'number'],
  [
    '.syntax--markup.syntax--heading, .syntax--entity.syntax--name.syntax--section',
    'keyword',
    'font-weight: bold;',
  ],
  ['.syntax--string, .syntax--markup.syntax--inline.syntax--raw', 'string'],
  ['.syntax--support.syntax--type.syntax--property-name', 'attribute'],
  ['.syntax--string.syntax--regexp', 'regexp'],
  ['.syntax--comment', 'comment', 'font-style: italic;'],
]

/**
 * The CSS of the themes: the light palette on every editor, the dark one under a dark system
 * preference unless the light theme is pinned, or whenever the dark one is; then the syntax
 * rules.
 *
 * @example themeStyles().includes('--tandem-syntax-comment') // => true
 */
export const themeStyles = (): string => {
  const syntax = SYNTAX_RULES.map(
    ([selector, property, extra = '']) =>
      `:where(.tandem-editor) :where(${selector}) { color: var(--tandem-syntax-${property}); ${extra}}`,
  )
  return [
    `.tandem-editor {\n  color-scheme: light;\n${declarations(LIGHT_THEME)}\n}`,
    `@media (prefers-color-scheme: dark) {\n.tandem-editor:not(.${themeClass('light')}) {\n  color-scheme: dark;\n${declarations(DARK_THEME)}\n}\n}`,
    `.tandem-editor.${themeClass('dark')} {\n  color-scheme: dark;\n${declarations(DARK_THEME)}\n}`,
    ':where(.tandem-editor) :where(.syntax--markup.syntax--bold) { font-weight: bold; }',
    ':where(.tandem-editor) :where(.syntax--markup.syntax--italic) { font-style: italic; }',
    ...syntax,
  ].join('\n')
}

/**
 * Throws a RangeError naming `theme` unless it is one of `EDITOR_THEMES`.
 *
 * @example assertTheme('dark')
 */
export function assertTheme(theme: unknown): asserts theme is EditorTheme {
  if (!EDITOR_THEMES.includes(theme as EditorTheme)) {
    throw new RangeError(`theme must be 'light', 'dark' or 'auto', got ${String(theme)}`)
  }
}

/**
 * Shows `theme` on editor element `element`.
 *
 * @example applyTheme(view.element, 'dark')
 */
export const applyTheme = (element: HTMLElement, theme: EditorTheme): void => {
  element.classList.toggle(themeClass('light'), theme === 'light')
  element.classList.toggle(themeClass('dark'), theme === 'dark')
}
