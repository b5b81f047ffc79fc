/// <reference lib="dom" />
/**
 * The gutter of an editor's view: what it shows beside each screen row (the buffer row's
 * number on its first screen row, the cursor rows, folded rows), and folding from it as in
 * Atom. While the pointer is over the gutter the rows that can fold show a marker; a click on
 * a foldable row's number folds it, on a folded row's unfolds it. Whether a row can fold is
 * asked only while the pointer is there: a syntax tree's fold query per row would cost every
 * frame (typing included) for markers no one is pointing at.
 */
import type { ScreenLine } from '@tandem/display'
import type { TextEditor } from '@tandem/editor'
import { Gutter } from './gutter.js'

/** What an `EditorGutter` asks of its view. */
export interface EditorGutterHost {
  /** Gives the editor the keyboard focus (after a click folded a row). */
  readonly focus: () => void
  /** Asks for an update (the pointer came or went, so the markers change). */
  readonly scheduleUpdate: () => void
}

/**
 * The line numbers of `editor`'s rows in sight, drawn in `element`, with folding by the
 * pointer.
 *
 * @example
 * const gutter = new EditorGutter(element, editor, { focus, scheduleUpdate })
 * gutter.render(0, 40, editor.displayLayer.getScreenLines(0, 40), 21)
 */
export class EditorGutter {
  private readonly gutter: Gutter
  /** Whether the pointer is over the gutter, whose foldable rows then show a fold marker. */
  private hovered = false
  private readonly unlisten: () => void

  constructor(
    element: HTMLElement,
    private readonly editor: TextEditor,
    host: EditorGutterHost,
  ) {
    this.gutter = new Gutter(element)
    const onDown = (event: MouseEvent) => {
      const row = event.button === 0 ? this.gutter.foldRowAt(event.target) : null
      if (row === null) return
      event.preventDefault()
      editor.toggleFoldAtBufferRow(row)
      host.focus()
    }
    element.addEventListener('mousedown', onDown)
    const onHover = (event: MouseEvent) => {
      this.hovered = event.type === 'mouseenter'
      host.scheduleUpdate()
    }
    element.addEventListener('mouseenter', onHover)
    element.addEventListener('mouseleave', onHover)
    this.unlisten = () => {
      element.removeEventListener('mousedown', onDown)
      element.removeEventListener('mouseenter', onHover)
      element.removeEventListener('mouseleave', onHover)
    }
  }

  /**
   * Sizes the gutter for `lineCount` lines; returns whether its width changed (the text
   * area then has another width, so soft wrap must follow).
   */
  setLineCount(lineCount: number): boolean {
    return this.gutter.setLineCount(lineCount)
  }

  /** Shows the numbers of screen rows [`startRow`, `endRow`), which show `screenLines`. */
  render(
    startRow: number,
    endRow: number,
    screenLines: readonly ScreenLine[],
    lineHeight: number,
  ): void {
    const { editor } = this
    const cursorRows = new Set<number>()
    for (const position of editor.getCursorScreenPositions()) cursorRows.add(position.row)
    const foldCharacter = editor.displayLayer.getSettings().foldCharacter
    this.gutter.render(
      startRow,
      endRow,
      (row) => {
        const line = screenLines[row - startRow]
        const start = line?.bufferRange.start
        const label = start === undefined || start.column !== 0 ? '' : String(start.row + 1)
        return {
          label,
          cursorLine: cursorRows.has(row),
          folded: line?.lineText.includes(foldCharacter) ?? false,
          foldable: this.hovered && label !== '' && editor.isFoldableAtBufferRow(start!.row),
        }
      },
      lineHeight,
    )
  }

  /** Stops listening to the pointer. Safe twice. */
  dispose(): void {
    this.unlisten()
  }
}
