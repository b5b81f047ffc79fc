import { Point } from '@tandem/text'

/** Any line break: `\r\n`, `\n` or a lone `\r`. */
export const LINE_BREAK = /\r\n|\n|\r/g

/**
 * Replaces every line break in `text` with `ending`.
 *
 * @example normalizeLineEndings('a\r\nb\rc', '\n') // => 'a\nb\nc'
 */
export const normalizeLineEndings = (text: string, ending: string): string =>
  text.replace(LINE_BREAK, ending)

/**
 * The extent of `text` as Atom measures it: rows are counted at `\n` only (the `\r` of
 * `\r\n` ends up in the column count of an unterminated last line, as in Atom).
 *
 * @example extentForText('ab\ncd') // => (1, 2)
 */
export const extentForText = (text: string): Point => {
  let rows = 0
  let lastBreak = -1
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    rows++
    lastBreak = i
  }
  return new Point(rows, text.length - lastBreak - 1)
}
