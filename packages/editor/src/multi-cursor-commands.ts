import type { Cursor } from './cursor.js'
import type { Selection } from './selection.js'

/**
 * Atom's editor-wide cursor moves and selection extensions: each runs a Cursor or Selection
 * operation on every cursor or selection, then merges those that met. Moves go through
 * `moveCursors`; extensions that grow forward merge into forward selections, those that grow
 * backward into reversed ones.
 */
export interface MultiCursorCommands {
  /** Moves every cursor up (from a selection's start). */
  moveUp(rowCount?: number): void

  /** Moves every cursor down (from a selection's end). */
  moveDown(rowCount?: number): void

  /** Moves every cursor left (to a selection's start). */
  moveLeft(columnCount?: number): void

  /** Moves every cursor right (to a selection's end). */
  moveRight(columnCount?: number): void

  /** Runs `Cursor.moveToBeginningOfLine` on every cursor, then merges cursors that met. */
  moveToBeginningOfLine(): void

  /** Runs `Cursor.moveToBeginningOfScreenLine` on every cursor, then merges cursors that met. */
  moveToBeginningOfScreenLine(): void

  /** Runs `Cursor.moveToFirstCharacterOfLine` on every cursor, then merges cursors that met. */
  moveToFirstCharacterOfLine(): void

  /** Runs `Cursor.moveToEndOfLine` on every cursor, then merges cursors that met. */
  moveToEndOfLine(): void

  /** Runs `Cursor.moveToEndOfScreenLine` on every cursor, then merges cursors that met. */
  moveToEndOfScreenLine(): void

  /** Runs `Cursor.moveToBeginningOfWord` on every cursor, then merges cursors that met. */
  moveToBeginningOfWord(): void

  /** Runs `Cursor.moveToEndOfWord` on every cursor, then merges cursors that met. */
  moveToEndOfWord(): void

  /** Runs `Cursor.moveToTop` on every cursor, then merges cursors that met. */
  moveToTop(): void

  /** Runs `Cursor.moveToBottom` on every cursor, then merges cursors that met. */
  moveToBottom(): void

  /** Runs `Cursor.moveToBeginningOfNextWord` on every cursor, then merges cursors that met. */
  moveToBeginningOfNextWord(): void

  /** Runs `Cursor.moveToPreviousWordBoundary` on every cursor, then merges cursors that met. */
  moveToPreviousWordBoundary(): void

  /** Runs `Cursor.moveToNextWordBoundary` on every cursor, then merges cursors that met. */
  moveToNextWordBoundary(): void

  /** Runs `Cursor.moveToPreviousSubwordBoundary` on every cursor, then merges cursors that met. */
  moveToPreviousSubwordBoundary(): void

  /** Runs `Cursor.moveToNextSubwordBoundary` on every cursor, then merges cursors that met. */
  moveToNextSubwordBoundary(): void

  /** Runs `Cursor.moveToBeginningOfNextParagraph` on every cursor, then merges cursors that met. */
  moveToBeginningOfNextParagraph(): void

  /** Runs `Cursor.moveToBeginningOfPreviousParagraph` on every cursor, then merges cursors that met. */
  moveToBeginningOfPreviousParagraph(): void

  /** Runs `Selection.selectUp` on every selection, then merges them (reversed). */
  selectUp(rowCount?: number): void

  /** Runs `Selection.selectLeft` on every selection, then merges them (reversed). */
  selectLeft(columnCount?: number): void

  /** Runs `Selection.selectDown` on every selection, then merges them. */
  selectDown(rowCount?: number): void

  /** Runs `Selection.selectRight` on every selection, then merges them. */
  selectRight(columnCount?: number): void

  /** Runs `Selection.selectToTop` on every selection, then merges them (reversed). */
  selectToTop(): void

  /** Runs `Selection.selectToBeginningOfLine` on every selection, then merges them (reversed). */
  selectToBeginningOfLine(): void

  /** Runs `Selection.selectToFirstCharacterOfLine` on every selection, then merges them (reversed). */
  selectToFirstCharacterOfLine(): void

  /** Runs `Selection.selectToBeginningOfWord` on every selection, then merges them (reversed). */
  selectToBeginningOfWord(): void

  /** Runs `Selection.selectToPreviousSubwordBoundary` on every selection, then merges them (reversed). */
  selectToPreviousSubwordBoundary(): void

  /** Runs `Selection.selectToPreviousWordBoundary` on every selection, then merges them (reversed). */
  selectToPreviousWordBoundary(): void

  /** Runs `Selection.selectToBeginningOfPreviousParagraph` on every selection, then merges them (reversed). */
  selectToBeginningOfPreviousParagraph(): void

  /** Runs `Selection.selectToBottom` on every selection, then merges them. */
  selectToBottom(): void

  /** Runs `Selection.selectToEndOfLine` on every selection, then merges them. */
  selectToEndOfLine(): void

  /** Runs `Selection.selectToEndOfWord` on every selection, then merges them. */
  selectToEndOfWord(): void

  /** Runs `Selection.selectToNextSubwordBoundary` on every selection, then merges them. */
  selectToNextSubwordBoundary(): void

  /** Runs `Selection.selectToNextWordBoundary` on every selection, then merges them. */
  selectToNextWordBoundary(): void

  /** Runs `Selection.selectToBeginningOfNextWord` on every selection, then merges them. */
  selectToBeginningOfNextWord(): void

  /** Runs `Selection.selectToBeginningOfNextParagraph` on every selection, then merges them. */
  selectToBeginningOfNextParagraph(): void
}

/** What the commands need of the editor. */
interface CommandHost {
  moveCursors(move: (cursor: Cursor) => void): void
  expandSelectionsForward(fn: (selection: Selection) => void): void
  expandSelectionsBackward(fn: (selection: Selection) => void): void
}

/** The implementations, installed on `TextEditor.prototype`. */
export const multiCursorCommands: MultiCursorCommands & ThisType<CommandHost> = {
  moveUp(rowCount?: number) {
    this.moveCursors((cursor) => cursor.moveUp(rowCount, { moveToEndOfSelection: true }))
  },
  moveDown(rowCount?: number) {
    this.moveCursors((cursor) => cursor.moveDown(rowCount, { moveToEndOfSelection: true }))
  },
  moveLeft(columnCount?: number) {
    this.moveCursors((cursor) => cursor.moveLeft(columnCount, { moveToEndOfSelection: true }))
  },
  moveRight(columnCount?: number) {
    this.moveCursors((cursor) => cursor.moveRight(columnCount, { moveToEndOfSelection: true }))
  },
  moveToBeginningOfLine() {
    this.moveCursors((cursor) => cursor.moveToBeginningOfLine())
  },
  moveToBeginningOfScreenLine() {
    this.moveCursors((cursor) => cursor.moveToBeginningOfScreenLine())
  },
  moveToFirstCharacterOfLine() {
    this.moveCursors((cursor) => cursor.moveToFirstCharacterOfLine())
  },
  moveToEndOfLine() {
    this.moveCursors((cursor) => cursor.moveToEndOfLine())
  },
  moveToEndOfScreenLine() {
    this.moveCursors((cursor) => cursor.moveToEndOfScreenLine())
  },
  moveToBeginningOfWord() {
    this.moveCursors((cursor) => cursor.moveToBeginningOfWord())
  },
  moveToEndOfWord() {
    this.moveCursors((cursor) => cursor.moveToEndOfWord())
  },
  moveToTop() {
    this.moveCursors((cursor) => cursor.moveToTop())
  },
  moveToBottom() {
    this.moveCursors((cursor) => cursor.moveToBottom())
  },
  moveToBeginningOfNextWord() {
    this.moveCursors((cursor) => cursor.moveToBeginningOfNextWord())
  },
  moveToPreviousWordBoundary() {
    this.moveCursors((cursor) => cursor.moveToPreviousWordBoundary())
  },
  moveToNextWordBoundary() {
    this.moveCursors((cursor) => cursor.moveToNextWordBoundary())
  },
  moveToPreviousSubwordBoundary() {
    this.moveCursors((cursor) => cursor.moveToPreviousSubwordBoundary())
  },
  moveToNextSubwordBoundary() {
    this.moveCursors((cursor) => cursor.moveToNextSubwordBoundary())
  },
  moveToBeginningOfNextParagraph() {
    this.moveCursors((cursor) => cursor.moveToBeginningOfNextParagraph())
  },
  moveToBeginningOfPreviousParagraph() {
    this.moveCursors((cursor) => cursor.moveToBeginningOfPreviousParagraph())
  },
  selectUp(rowCount?: number) {
    this.expandSelectionsBackward((selection) => selection.selectUp(rowCount))
  },
  selectLeft(columnCount?: number) {
    this.expandSelectionsBackward((selection) => selection.selectLeft(columnCount))
  },
  selectDown(rowCount?: number) {
    this.expandSelectionsForward((selection) => selection.selectDown(rowCount))
  },
  selectRight(columnCount?: number) {
    this.expandSelectionsForward((selection) => selection.selectRight(columnCount))
  },
  selectToTop() {
    this.expandSelectionsBackward((selection) => selection.selectToTop())
  },
  selectToBeginningOfLine() {
    this.expandSelectionsBackward((selection) => selection.selectToBeginningOfLine())
  },
  selectToFirstCharacterOfLine() {
    this.expandSelectionsBackward((selection) => selection.selectToFirstCharacterOfLine())
  },
  selectToBeginningOfWord() {
    this.expandSelectionsBackward((selection) => selection.selectToBeginningOfWord())
  },
  selectToPreviousSubwordBoundary() {
    this.expandSelectionsBackward((selection) => selection.selectToPreviousSubwordBoundary())
  },
  selectToPreviousWordBoundary() {
    this.expandSelectionsBackward((selection) => selection.selectToPreviousWordBoundary())
  },
  selectToBeginningOfPreviousParagraph() {
    this.expandSelectionsBackward((selection) => selection.selectToBeginningOfPreviousParagraph())
  },
  selectToBottom() {
    this.expandSelectionsForward((selection) => selection.selectToBottom())
  },
  selectToEndOfLine() {
    this.expandSelectionsForward((selection) => selection.selectToEndOfLine())
  },
  selectToEndOfWord() {
    this.expandSelectionsForward((selection) => selection.selectToEndOfWord())
  },
  selectToNextSubwordBoundary() {
    this.expandSelectionsForward((selection) => selection.selectToNextSubwordBoundary())
  },
  selectToNextWordBoundary() {
    this.expandSelectionsForward((selection) => selection.selectToNextWordBoundary())
  },
  selectToBeginningOfNextWord() {
    this.expandSelectionsForward((selection) => selection.selectToBeginningOfNextWord())
  },
  selectToBeginningOfNextParagraph() {
    this.expandSelectionsForward((selection) => selection.selectToBeginningOfNextParagraph())
  },
}
