/**
 * A tree-sitter syntax tree kept in step with a `TextBuffer`: every edit, local or remote, is
 * applied to the tree as it happens (`Tree.edit`), and the text is parsed again only when
 * someone asks for the tree, so a transaction of many edits costs one incremental parse.
 */

import type { BufferChange, TextBuffer } from '@tandem/buffer'
import { type Disposable, Emitter, Point, type PointLike, Range } from '@tandem/text'
import { Edit, type Language, Parser, type Tree } from 'web-tree-sitter'
import type { ParsedSyntaxTree, SyntaxNode, TreeSitterLanguage } from './syntax-node.js'

/**
 * What `onDidReparse` reports: where the syntax changed, in buffer positions of the text as
 * it is now.
 *
 * @example tree.onDidReparse(({ changedRanges }) => changedRanges.forEach(rehighlight))
 */
export interface SyntaxTreeReparseEvent {
  /**
   * Ranges whose syntactic structure differs from the tree before (tree-sitter's changed
   * ranges). Edits inside a token that leave the structure as it was are not in them. After a
   * parse from scratch, the whole text.
   */
  readonly changedRanges: readonly Range[]
  /** True when there was no old tree to reuse (the buffer re-read its whole text). */
  readonly fromScratch: boolean
}

interface Events {
  'did-reparse': SyntaxTreeReparseEvent
}

/**
 * Text handed to tree-sitter per read: whole lines, up to about this many UTF-16 units (the
 * parser's input buffer holds 5,119 of them; the rest of a longer chunk is read again).
 */
const CHUNK_LENGTH = 4096

/**
 * The syntax tree of a buffer's text in one tree-sitter language, following the buffer's edits
 * (see `TextBuffer.followEdits`) and parsed again lazily, when the tree or a node is asked for.
 *
 * Trees and nodes handed out stay valid until the next parse: read them, do not keep them.
 *
 * @example
 * const syntax = new SyntaxTree(await loadTreeSitterLanguage('javascript'), buffer)
 * syntax.nodeTypesAt([0, 12]) // => ['program', 'lexical_declaration', ..., 'string_fragment']
 */
export class SyntaxTree {
  /** The tree-sitter language it parses with. */
  readonly language: TreeSitterLanguage
  /** The buffer it parses and follows. */
  readonly buffer: TextBuffer
  private readonly parser: Parser
  private readonly emitter = new Emitter<Events>()
  private readonly following: Disposable
  /** The last tree parsed, edited since; null when the text must be parsed from scratch. */
  private tree: Tree | null = null
  private stale = true
  /** Whether a parse happened yet: the first one, from scratch, is not reported. */
  private parsed = false
  private destroyed = false

  /**
   * Follows `buffer`'s edits from now on, until `destroy`, to parse its text with `language`
   * (from `loadTreeSitterLanguage`) when the tree is first asked for: an editor that never
   * asks about syntax nodes never parses.
   *
   * @example new SyntaxTree(await loadTreeSitterLanguage('python'), new TextBuffer('x = 1'))
   */
  constructor(language: TreeSitterLanguage, buffer: TextBuffer) {
    this.language = language
    this.buffer = buffer
    this.parser = new Parser()
    // Only `loadTreeSitterLanguage` makes these: a tree-sitter `Language` underneath.
    this.parser.setLanguage(language as Language)
    this.following = buffer.followEdits({
      textDidChange: (changes) => this.applyChanges(changes),
      textDidReset: () => this.forgetTree(),
      // Nothing to do: parsing waits until someone asks for the tree.
      transactionDidEnd: () => {},
    })
  }

  /**
   * The tree of the text as it is now, parsed again first when the text changed since the last
   * parse. Valid until the next parse; `copy()` it to keep it (and `delete()` the copy).
   *
   * @example syntax.getTree().rootNode.hasError
   */
  getTree(): ParsedSyntaxTree {
    this.reparseNow()
    return this.tree!
  }

  /** The root node of `getTree()` (`program` in JavaScript, `module` in Python). */
  get rootNode(): SyntaxNode {
    return this.getTree().rootNode
  }

  /**
   * Whether the text changed since the last parse (the next read of the tree parses again).
   *
   * @example buffer.insert([0, 0], ' '); syntax.isStale() // => true
   */
  isStale(): boolean {
    return this.stale
  }

  /**
   * Parses the text again now if it changed since the last parse, reusing the old tree, and
   * reports the changed ranges through `onDidReparse`. Does nothing when the tree is current.
   *
   * @example buffer.transact(() => edits.forEach(apply)); syntax.reparseNow()
   */
  reparseNow(): void {
    this.assertNotDestroyed()
    if (!this.stale) return
    const oldTree = this.tree
    const tree = this.parse(oldTree)
    this.tree = tree
    this.stale = false
    const first = !this.parsed
    this.parsed = true
    if (first) {
      oldTree?.delete()
      return
    }
    let changedRanges: Range[]
    if (oldTree === null) {
      changedRanges = [this.buffer.getRange()]
    } else {
      // Asked of the old, edited tree about the new one (not the other way round).
      changedRanges = oldTree.getChangedRanges(tree).map((range) => this.bufferRange(range))
      oldTree.delete()
    }
    this.emitter.emit('did-reparse', { changedRanges, fromScratch: oldTree === null })
  }

  /**
   * The types of the nodes containing `position` (clipped), from the root to the smallest,
   * anonymous nodes such as `"` included: what Atom's `getSyntaxTreeScopeDescriptor` lists
   * after the language's root scope. At the end of a non-empty line the character to the left
   * is taken, as TextMate scopes do.
   *
   * @example syntax.nodeTypesAt([0, 11]) // 'const s = "hi"' => ['program', 'lexical_declaration', 'variable_declarator', 'string', 'string_fragment']
   */
  nodeTypesAt(position: PointLike): string[] {
    const node = this.nodeAt(position)
    const types: string[] = []
    for (let ancestor: SyntaxNode | null = node; ancestor !== null; ancestor = ancestor.parent) {
      types.push(ancestor.type)
    }
    return types.reverse()
  }

  /**
   * The smallest node containing `position` (clipped; at the end of a non-empty line, the
   * character to its left), of the current tree. Its `parent`s lead to the root.
   *
   * @example syntax.nodeAt([0, 0]).type // 'const x = 1' => 'const'
   */
  nodeAt(position: PointLike): SyntaxNode {
    let point = this.buffer.clipPosition(position)
    if (point.column > 0 && point.column === this.buffer.lineLengthForRow(point.row)) {
      point = new Point(point.row, point.column - 1)
    }
    const root = this.rootNode
    return root.descendantForIndex(this.buffer.characterIndexForPosition(point)) ?? root
  }

  /**
   * Calls `callback` after each parse that followed edits (not the first parse), with the
   * ranges whose syntax changed.
   *
   * @example syntax.onDidReparse(({ changedRanges }) => console.log(changedRanges.length))
   */
  onDidReparse(callback: (event: SyntaxTreeReparseEvent) => void): Disposable {
    return this.emitter.on('did-reparse', callback)
  }

  /** Whether `destroy` was called. */
  isDestroyed(): boolean {
    return this.destroyed
  }

  /**
   * Stops following the buffer and frees the tree and the parser (tree-sitter memory is not
   * garbage collected). Trees and nodes handed out become unusable. Safe to call twice.
   */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.following.dispose()
    this.tree?.delete()
    this.tree = null
    this.parser.delete()
    this.emitter.dispose()
  }

  /**
   * Takes in edits just made to the buffer. The buffer already holds their result, so each
   * change is applied in order: the changes before it are in the tree, the ones after it are
   * not, and both the text before its start and its new text read the same in the tree's
   * coordinates then as in the buffer now.
   */
  private applyChanges(changes: readonly BufferChange[]): void {
    this.stale = true
    const tree = this.tree
    if (tree === null) return
    for (const change of changes) tree.edit(this.editFor(change))
  }

  /** The tree-sitter edit of `change`, in offsets and points of the buffer's text now. */
  private editFor(change: BufferChange): Edit {
    const { row } = change.newRange.start
    let { column } = change.newRange.start
    // Rows and columns cannot name the place between the `\r` and `\n` of a line ending: a
    // `\n` inserted after a lone `\r` (making a `\r\n`) is reported at the end of the line's
    // text, one column early. Tree-sitter counts the `\r` as a column; so do we here.
    if (
      change.newText.startsWith('\n') &&
      column === this.buffer.lineLengthForRow(row) &&
      this.buffer.lineEndingForRow(row) === '\r\n'
    ) {
      column += 1
    }
    // Not `characterIndexForPosition(start)`: a column past the line's text (just after a `\r`
    // that now ends the line) must not be clipped back.
    const startIndex = this.buffer.characterIndexForPosition(new Point(row, 0)) + column
    const startPosition = { row, column }
    return new Edit({
      startIndex,
      oldEndIndex: startIndex + change.oldText.length,
      newEndIndex: startIndex + change.newText.length,
      startPosition,
      oldEndPosition: traverseText(startPosition, change.oldText),
      newEndPosition: traverseText(startPosition, change.newText),
    })
  }

  /** The whole text must be parsed again (the buffer read its text anew). */
  private forgetTree(): void {
    this.tree?.delete()
    this.tree = null
    this.stale = true
  }

  private parse(oldTree: Tree | null): Tree {
    const tree = this.parser.parse(this.readChunk, oldTree)
    if (tree === null) {
      throw new Error(`tree-sitter failed to parse the text as ${this.language.name ?? 'unknown'}`)
    }
    return tree
  }

  /**
   * Tree-sitter's input: the text from `index` (UTF-16 units) to the end of its line and whole
   * lines after it, so that parsing never builds the whole text as one string.
   */
  private readonly readChunk = (index: number): string => {
    const buffer = this.buffer
    if (index >= buffer.getLength()) return ''
    let row = buffer.positionForCharacterIndex(index).row
    const rowStart = buffer.characterIndexForPosition(new Point(row, 0))
    let chunk = lineWithEnding(buffer, row).slice(index - rowStart)
    const lastRow = buffer.getLastRow()
    while (chunk.length < CHUNK_LENGTH && row < lastRow) {
      row++
      chunk += lineWithEnding(buffer, row)
    }
    return chunk
  }

  /** A range of the current tree, in buffer positions. */
  private bufferRange(range: { startIndex: number; endIndex: number }): Range {
    return new Range(
      this.buffer.positionForCharacterIndex(range.startIndex),
      this.buffer.positionForCharacterIndex(range.endIndex),
    )
  }

  private assertNotDestroyed(): void {
    if (this.destroyed) throw new Error('this SyntaxTree was destroyed')
  }
}

const lineWithEnding = (buffer: TextBuffer, row: number): string =>
  (buffer.lineForRow(row) ?? '') + (buffer.lineEndingForRow(row) ?? '')

/**
 * Where `start` ends up after `text`, counting rows at `\n` only and columns in UTF-16 units,
 * as tree-sitter does.
 */
const traverseText = (
  start: { row: number; column: number },
  text: string,
): { row: number; column: number } => {
  const lastBreak = text.lastIndexOf('\n')
  if (lastBreak === -1) return { row: start.row, column: start.column + text.length }
  let rows = 0
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) rows++
  return { row: start.row + rows, column: text.length - lastBreak - 1 }
}
