/**
 * Where each tree-sitter language folds, as tree-sitter queries read by `SyntaxFolds`: the
 * same nodes fold as in Pulsar's tree-sitter grammars, with the same adjustments of where a
 * fold ends. A `@fold` capture folds from the end of the node's first row to the start of its
 * last child (its closing bracket) unless `#set!` says otherwise; `@fold.start` and
 * `@fold.end` pair up in buffer order for folds no single node spans. The adjustments:
 * `fold.endAt` (a path of node fields ending in `startPosition` or `endPosition`),
 * `fold.offsetEnd` (move the end by characters), `fold.adjustEndColumn` (move it to a column)
 * and `fold.adjustToEndOfPreviousRow` (end at the end of the row above).
 */

/** Brackets shared by JavaScript and TypeScript: bodies, literals, parameter lists, comments. */
const SCRIPT_BLOCKS = `
; Bracketed bodies and literals fold up to their closing bracket.
[
  (class_body)
  (switch_body)
  (object)
  (named_imports)
  (template_string)
] @fold

; Argument and parameter lists stop a row short of their closing parenthesis, so that a
; function body opening on that row keeps a fold of its own.
([(formal_parameters) (arguments)] @fold
  (#set! fold.adjustToEndOfPreviousRow true))
`

const SCRIPT_STATEMENTS_AND_COMMENTS = `
; The block after \`else\`, and every other block.
(else_clause (statement_block) @fold)
(statement_block) @fold

; A block comment folds to just before its closing delimiter.
((comment) @fold
  (#set! fold.endAt endPosition)
  (#set! fold.offsetEnd -2))
`

const JSX_FOLDS = `
; The children of an element whose opening tag spans rows fold from the tag's \`>\` to the
; row above the closing tag.
(jsx_element
  (jsx_opening_element ">" @fold)
  (#set! fold.endAt parent.parent.lastChild.startPosition)
  (#set! fold.adjustToEndOfPreviousRow true))

; An opening tag's attributes fold up to the end of the last one.
(jsx_element
  (jsx_opening_element) @fold
  (#set! fold.endAt lastChild.previousSibling.endPosition))

; A self-closing element folds up to its closing \`/>\`.
((jsx_self_closing_element) @fold
  (#set! fold.endAt lastChild.startPosition))
`

/**
 * JavaScript (and JSX): bracketed blocks, literals, argument lists and block comments. The
 * block of an `if` that has an `else` stops a row short, so the `else` block folds on its own.
 */
export const JAVASCRIPT_FOLDS = `${SCRIPT_BLOCKS}
((if_statement
  consequence: (statement_block) @fold
  alternative: (else_clause)
  (#set! fold.adjustToEndOfPreviousRow true)))
${SCRIPT_STATEMENTS_AND_COMMENTS}${JSX_FOLDS}`

const TYPESCRIPT_BLOCKS = `${SCRIPT_BLOCKS}
; Type literals, interfaces and enums fold like objects.
[
  (object_type)
  (interface_body)
  (enum_body)
] @fold

; Every \`if\` block stops a row short of its closing brace.
((if_statement
  consequence: (statement_block) @fold)
  (#set! fold.adjustToEndOfPreviousRow true))
${SCRIPT_STATEMENTS_AND_COMMENTS}`

/** TypeScript: JavaScript's folds plus type literals, interfaces and enums. */
export const TYPESCRIPT_FOLDS = TYPESCRIPT_BLOCKS

/**
 * TSX: TypeScript's folds and JSX's. An element's children fold to one character before the
 * closing tag's row starts, as Pulsar's TSX grammar has it.
 */
export const TSX_FOLDS = `${TYPESCRIPT_BLOCKS}
(jsx_element
  (jsx_opening_element ">" @fold)
  (#set! fold.endAt parent.parent.lastChild.startPosition)
  (#set! fold.offsetEnd -1))

(jsx_element
  (jsx_opening_element) @fold
  (#set! fold.endAt lastChild.previousSibling.endPosition))

((jsx_self_closing_element) @fold
  (#set! fold.endAt lastChild.startPosition))
`

/**
 * Python: definitions, compound statements, clauses, comprehensions and strings fold to the
 * end of the node (Python blocks have no closing bracket); bracketed literals and argument
 * lists to their closing bracket; `try` up to its first `except`, and an `if` over its first
 * block.
 */
export const PYTHON_FOLDS = `
([
  (function_definition)
  (class_definition)
  (while_statement)
  (for_statement)
  (with_statement)
  (match_statement)
  (except_clause)
  (elif_clause)
  (else_clause)
  (case_clause)
  (import_from_statement)
  (parameters)
  (parenthesized_expression)
  (generator_expression)
  (list_comprehension)
  (set_comprehension)
  (dictionary_comprehension)
  (string)
] @fold
  (#set! fold.endAt endPosition))

(try_statement
  "try" @fold.start
  body: (block)
  .
  (except_clause) @fold.end)

[
  (argument_list)
  (tuple)
  (list)
  (set)
  (dictionary)
] @fold

(if_statement "if" @fold.start)
(if_statement consequence: (block) @fold.end
  (#set! fold.endAt endPosition))
`
