/**
 * What Tandem's API promises of tree-sitter's objects: syntax nodes, parsed trees and loaded
 * grammars, as plain interfaces. Tree-sitter's own classes (from `web-tree-sitter`) are what
 * they are at run time; the published types name only these, so a project type-checking
 * Tandem's declarations never loads `web-tree-sitter`'s, whose ambient Emscripten types it
 * would need to install.
 */

/** A place in a parsed text: a row, and a column as tree-sitter counts it. */
export interface SyntaxPoint {
  /** The row, from 0. */
  readonly row: number
  /** The column, from 0. */
  readonly column: number
}

/** A node of a syntax tree. Valid until its tree is parsed again or deleted. */
export interface SyntaxNode {
  /** The node's type: a grammar rule's name, or the text of an anonymous token (`"("`). */
  readonly type: string
  /** Whether the grammar names it (anonymous tokens are not named). */
  readonly isNamed: boolean
  /** Whether it holds a syntax error. */
  readonly hasError: boolean
  /** Its text. */
  readonly text: string
  /** Where it starts, as an offset of the text. */
  readonly startIndex: number
  /** Where it ends (exclusive), as an offset of the text. */
  readonly endIndex: number
  /** Where it starts. */
  readonly startPosition: SyntaxPoint
  /** Where it ends. */
  readonly endPosition: SyntaxPoint
  /** The node holding it; null for the root. */
  readonly parent: SyntaxNode | null
  /** Its children, in order. */
  readonly children: readonly SyntaxNode[]
  /** Its named children, in order. */
  readonly namedChildren: readonly SyntaxNode[]
  /** How many children it has. */
  readonly childCount: number
  /** Its child at `index`, or null. */
  child(index: number): SyntaxNode | null
  /** The smallest node below it spanning offsets `start` to `end` (default `start`). */
  descendantForIndex(start: number, end?: number): SyntaxNode | null
}

/** A parsed tree. */
export interface ParsedSyntaxTree {
  /** Its root node. */
  readonly rootNode: SyntaxNode
  /** A copy that stays valid after the next parse (delete it when done). */
  copy(): ParsedSyntaxTree
  /** Frees it (tree-sitter's memory is not garbage collected). */
  delete(): void
}

/** A loaded tree-sitter grammar, to parse with (`loadTreeSitterLanguage`). */
export interface TreeSitterLanguage {
  /** The grammar's name, when it has one. */
  readonly name: string | null
}
