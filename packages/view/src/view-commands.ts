/**
 * The commands that need more than the editor: the find bar, select-next, go to line, the
 * bracket matcher and the font size, with Atom's names (`find-and-replace:select-next`,
 * `go-to-line:toggle`, `bracket-matcher:go-to-matching-bracket`, `window:increase-font-size`).
 * Backspace, newline and escape consult them before the editor's own commands.
 */
import type { BracketMatcher, OccurrenceSelector } from '@tandem/editor'
import { type CommandContext, EDITOR_COMMANDS } from './commands.js'
import type { FindBar } from './find-bar.js'
import type { GoToLineBox } from './go-to-line-box.js'

/** What the view gives its commands. */
export interface ViewCommandHost {
  readonly findBar: FindBar
  readonly goToLine: GoToLineBox
  /** The select-next model (made on first use). */
  occurrences(): OccurrenceSelector
  /** The view's bracket matcher. */
  readonly brackets: BracketMatcher
  /** Zooms the font one step in or out, or back to the page's size. */
  zoom(direction: 'in' | 'out' | 'reset'): void
}

/** A view command: false means "not handled" (the key goes on). */
export type ViewCommand = (host: ViewCommandHost, context: CommandContext) => boolean | undefined

const occurrence =
  (fn: (model: OccurrenceSelector) => void): ViewCommand =>
  (host) => {
    fn(host.occurrences())
    return true
  }

const bracket =
  (fn: (model: BracketMatcher) => void): ViewCommand =>
  (host) => {
    fn(host.brackets)
    return true
  }

const editorCommand = (name: string, context: CommandContext): boolean | undefined =>
  EDITOR_COMMANDS[name]?.(context)

/**
 * Every view command by name. The ones named like editor commands (`core:backspace`,
 * `editor:newline`, `editor:consolidate-selections`) run in their place.
 *
 * @example VIEW_COMMANDS['find-and-replace:show']!(host, context)
 */
export const VIEW_COMMANDS: Readonly<Record<string, ViewCommand>> = Object.freeze({
  'find-and-replace:show': (host) => {
    host.findBar.show()
    return true
  },
  'find-and-replace:show-replace': (host) => {
    host.findBar.show({ replace: true })
    return true
  },
  'find-and-replace:find-next': (host) => {
    void host.findBar.findNext()
    return true
  },
  'find-and-replace:find-previous': (host) => {
    void host.findBar.findPrevious()
    return true
  },
  'find-and-replace:find-next-selected': (host) => {
    if (host.findBar.useSelectionAsFindPattern()) void host.findBar.findNext()
    return true
  },
  'find-and-replace:find-previous-selected': (host) => {
    if (host.findBar.useSelectionAsFindPattern()) void host.findBar.findPrevious()
    return true
  },
  'find-and-replace:use-selection-as-find-pattern': (host) => {
    host.findBar.useSelectionAsFindPattern()
    return true
  },
  'find-and-replace:use-selection-as-replace-pattern': (host) => {
    host.findBar.useSelectionAsReplacePattern()
    return true
  },
  'find-and-replace:select-next': occurrence((model) => model.selectNext()),
  'find-and-replace:select-skip': occurrence((model) => model.skipCurrent()),
  'find-and-replace:select-undo': occurrence((model) => model.undoLast()),
  'find-and-replace:select-all': occurrence((model) => model.selectAll()),
  'go-to-line:toggle': (host) => {
    host.goToLine.toggle()
    return true
  },
  'bracket-matcher:go-to-matching-bracket': bracket((model) => model.goToMatchingBracket()),
  'bracket-matcher:select-inside-brackets': bracket((model) => model.selectInsideBrackets()),
  'bracket-matcher:remove-matching-brackets': bracket((model) => model.removeBrackets()),
  'bracket-matcher:select-matching-brackets': bracket((model) => model.selectMatchingBrackets()),
  'bracket-matcher:go-to-enclosing-bracket': bracket((model) => model.goToEnclosingBracket()),
  'bracket-matcher:remove-brackets-from-selection': (host) =>
    host.brackets.removeBracketsFromSelection(),
  'window:increase-font-size': (host) => {
    host.zoom('in')
    return true
  },
  'window:decrease-font-size': (host) => {
    host.zoom('out')
    return true
  },
  'window:reset-font-size': (host) => {
    host.zoom('reset')
    return true
  },
  // Between a pair of brackets the matcher deletes both, and splits them over three lines.
  'core:backspace': (host, context) =>
    host.brackets.backspace() || editorCommand('core:backspace', context),
  'editor:newline': (host, context) =>
    host.brackets.newline() || editorCommand('editor:newline', context),
  // With one selection, escape closes the find bar or the go-to-line box, as in Atom.
  'editor:consolidate-selections': (host, context) => {
    if (editorCommand('editor:consolidate-selections', context) !== false) return true
    if (host.findBar.isVisible()) host.findBar.hide()
    else if (host.goToLine.isVisible()) host.goToLine.hide(true)
    else return false
    return true
  },
})
