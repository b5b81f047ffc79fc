/**
 * Multiple selections by occurrence, as Atom's find-and-replace `select-next` does it:
 * ctrl-d selects the word under the cursor, then adds the next occurrence of the selected
 * text each time; ctrl-k ctrl-d skips one, ctrl-u takes the last one back, alt-f3 selects
 * them all.
 *
 * Occurrences are found case-sensitively, as the selected text is written. When the first
 * selection was a whole word (selected by ctrl-d from a caret, or already bounded by non-word
 * characters), only whole-word occurrences count, judged with the editor's non-word
 * characters, until that selection is changed or removed.
 */
import { CompositeDisposable, Point, Range } from '@tandem/text'
import type { Selection } from './selection.js'
import type { TextEditor } from './text-editor.js'
import { escapeRegExp } from './words.js'

/**
 * Atom's select-next over one editor. Keep one per editor: it remembers whether the
 * occurrences are whole words.
 *
 * @example
 * const occurrences = new OccurrenceSelector(editor)
 * occurrences.selectNext() // the word under the cursor
 * occurrences.selectNext() // and its next occurrence
 */
export class OccurrenceSelector {
  private readonly editor: TextEditor
  /** Whether the occurrences must be whole words; cleared when that selection changes. */
  private wordSelected = false
  private wordSubscriptions: CompositeDisposable | null = null

  constructor(editor: TextEditor) {
    this.editor = editor
  }

  /**
   * With an empty last selection, selects the word under each cursor; otherwise adds a
   * selection for the next occurrence of the last selection's text after it, wrapping around
   * to the start of the buffer (up to the first selection).
   */
  selectNext(): void {
    if (this.editor.getLastSelection().isEmpty()) this.selectWord()
    else this.selectNextOccurrence(this.editor.getLastSelection().getBufferRange().end)
  }

  /**
   * Like `selectNext` but the last selection gives way: the next occurrence replaces it
   * (with a single selection, the selection moves to the next occurrence). Does nothing with
   * an empty last selection.
   */
  skipCurrent(): void {
    const editor = this.editor
    const last = editor.getLastSelection()
    if (last.isEmpty()) return
    const range = last.getBufferRange()
    const text = last.getText()
    const reversed = last.isReversed()
    if (editor.getSelections().length > 1) {
      this.keepWordSelected(() => last.destroy())
      this.selectNextOccurrence(range.end, text, reversed)
    } else {
      const next = this.findNextOccurrence(text, range.end, range.start)
      if (next === undefined || next.isEqual(range)) return
      this.keepWordSelected(() =>
        editor.setSelectedBufferRange(next, { reversed, autoscroll: false }),
      )
      this.scrollTo(next)
    }
  }

  /** Removes the last added selection; with one selection left, clears it to a caret. */
  undoLast(): void {
    const editor = this.editor
    const selections = editor.getSelections()
    if (selections.length > 1) {
      selections[selections.length - 1]!.destroy()
    } else {
      editor.clearSelections({ autoscroll: false })
    }
    this.scrollTo(editor.getLastSelection().getBufferRange())
  }

  /**
   * Selects every occurrence of the last selection's text (of the word under the cursor,
   * when the selection is empty), keeping the other selections.
   */
  selectAll(): void {
    const editor = this.editor
    if (editor.getLastSelection().isEmpty()) this.selectWord()
    const last = editor.getLastSelection()
    if (last.isEmpty()) return
    const regex = this.occurrencePattern(last.getText())
    const found: Range[] = []
    const buffer = editor.getBuffer()
    buffer.scanInRange(regex, buffer.getRange(), (result) => found.push(occurrenceRange(result)))
    const existing = editor.getSelectedBufferRanges()
    const fresh = found.filter((range) => !existing.some((other) => other.isEqual(range)))
    if (fresh.length === 0) return
    editor.setSelectedBufferRanges([...existing, ...fresh], {
      reversed: last.isReversed(),
      autoscroll: false,
    })
  }

  /** Forgets the whole-word state. The editor is left as it is. */
  destroy(): void {
    this.clearWordSelected()
  }

  // Internals

  private selectWord(): void {
    const editor = this.editor
    editor.selectWordsContainingCursors()
    const last = editor.getLastSelection()
    this.clearWordSelected()
    if (!this.isWordSelected(last)) return
    this.wordSelected = true
    const subscriptions = new CompositeDisposable()
    subscriptions.add(
      last.onDidChangeRange(() => this.clearWordSelected()),
      last.onDidDestroy(() => this.clearWordSelected()),
    )
    this.wordSubscriptions = subscriptions
  }

  private clearWordSelected(): void {
    this.wordSelected = false
    this.wordSubscriptions?.dispose()
    this.wordSubscriptions = null
  }

  /** Runs `fn` without losing the whole-word state to the selection changes it makes. */
  private keepWordSelected(fn: () => void): void {
    const word = this.wordSelected
    const subscriptions = this.wordSubscriptions
    this.wordSubscriptions = null
    fn()
    if (this.wordSubscriptions === null) {
      this.wordSubscriptions = subscriptions
      this.wordSelected = word
    } else {
      subscriptions?.dispose()
    }
  }

  /**
   * Adds a selection for the first occurrence of `text` (default: the last selection's) at or
   * after `from`, else from the buffer's start up to the first selection.
   */
  private selectNextOccurrence(
    from: Point,
    text = this.editor.getLastSelection().getText(),
    reversed = this.editor.getLastSelection().isReversed(),
  ): void {
    const editor = this.editor
    const range = this.findNextOccurrence(
      text,
      from,
      editor.getSelections()[0]!.getBufferRange().start,
    )
    if (range === undefined) return
    editor.addSelectionForBufferRange(range, { reversed, autoscroll: false })
    this.scrollTo(range)
  }

  /** The first occurrence in `from`..end, else in start..`wrapEnd`. */
  private findNextOccurrence(text: string, from: Point, wrapEnd: Point): Range | undefined {
    const buffer = this.editor.getBuffer()
    const regex = this.occurrencePattern(text)
    let found: Range | undefined
    const take = (result: Parameters<Parameters<typeof buffer.scanInRange>[2]>[0]) => {
      found = occurrenceRange(result)
      result.stop()
    }
    buffer.scanInRange(regex, new Range(from, buffer.getEndPosition()), take)
    if (found === undefined) buffer.scanInRange(regex, new Range(Point.ZERO, wrapEnd), take)
    return found
  }

  /**
   * Atom's pattern: the text, case-sensitive; for a whole word, with non-word characters (or
   * a line's ends) on both sides. The leading ones are matched in group 1 and cut off after.
   */
  private occurrencePattern(text: string): RegExp {
    let source = escapeRegExp(text)
    if (this.wordSelected) {
      const nonWord = escapeRegExp(this.editor.getNonWordCharacters())
      source = `(^|[ \\t${nonWord}]+)${source}(?=$|[\\s${nonWord}]+)`
    }
    return new RegExp(source, 'g')
  }

  /** Whether `selection` is one whole word on one line. */
  private isWordSelected(selection: Selection): boolean {
    const range = selection.getBufferRange()
    if (range.isEmpty() || !range.isSingleLine()) return false
    const editor = this.editor
    const nonWord = editor.getNonWordCharacters(range.start)
    const isNonWord = (character: string) =>
      character === ' ' || character === '\t' || nonWord.includes(character)
    const line = editor.lineTextForBufferRow(range.start.row) ?? ''
    const before = range.start.column === 0 || isNonWord(line[range.start.column - 1]!)
    const after = range.end.column === line.length || isNonWord(line[range.end.column]!)
    const text = selection.getText()
    return before && after && ![...text].some(isNonWord)
  }

  private scrollTo(range: Range): void {
    const editor = this.editor
    editor.scrollToScreenRange(editor.screenRangeForBufferRange(range))
  }
}

/** The range of an occurrence, without the non-word characters the pattern matched before it. */
const occurrenceRange = (result: { match: RegExpExecArray; range: Range }): Range => {
  const prefix = result.match[1]
  if (prefix === undefined || prefix === '') return result.range
  return new Range(result.range.start.traverse([0, prefix.length]), result.range.end)
}
