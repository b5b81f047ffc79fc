/**
 * Line breaks as Atom's text-buffer reads them: a line ends at `\n` (with the `\r` before it,
 * if any, as part of a `\r\n` ending); a lone `\r` is an ordinary character.
 *
 * The line store keeps endings as small integer codes in plain number arrays rather than as
 * strings, so that a leaf is three packed arrays and an ending's length is arithmetic.
 */

/** The ending of one line; `''` only for the last line of a text. */
export type LineEnding = '' | '\n' | '\r\n' | '\r'

/** Code of the empty ending that only the last line has. */
export const ENDING_NONE = 0
/** Code of `\n`. */
export const ENDING_LF = 1
/**
 * Code of a lone `\r`. `splitLines` never produces it (a lone `\r` is text); it holds its place
 * so that `endingLength` stays arithmetic, and `LineEnding` keeps `'\r'` for callers that name
 * endings.
 */
export const ENDING_CR = 2
/** Code of `\r\n`. */
export const ENDING_CRLF = 3

const ENDING_TEXTS: readonly LineEnding[] = ['', '\n', '\r', '\r\n']

/**
 * UTF-16 length of the ending with this code. The codes are ordered so that this is
 * arithmetic, with no table lookup on the hot path.
 *
 * @example endingLength(ENDING_CRLF) // => 2
 */
export function endingLength(code: number): number {
  return (code + 1) >> 1
}

/**
 * The text of the ending with this code.
 *
 * @example endingText(ENDING_CR) // => '\r'
 */
export function endingText(code: number): LineEnding {
  return ENDING_TEXTS[code] ?? ''
}

/**
 * Lines as three parallel arrays: each line's text without its ending, its ending code, and
 * its full length (text plus ending) in UTF-16 code units.
 */
export interface LineArrays {
  texts: string[]
  ends: number[]
  lens: number[]
}

/**
 * Appends the lines of `text` to `out`. A text always has one more line than it has breaks,
 * so the last line appended has ending `ENDING_NONE` (and is `''` when `text` ends in a break).
 *
 * @example splitLines('a\r\nb\rc', out) // appends 'a' (CRLF), 'b\rc' (none)
 */
export function splitLines(text: string, out: LineArrays): void {
  const { texts, ends, lens } = out
  let start = 0
  for (let lf = text.indexOf('\n'); lf !== -1; lf = text.indexOf('\n', start)) {
    const crlf = lf > start && text.charCodeAt(lf - 1) === 13
    texts.push(text.slice(start, crlf ? lf - 1 : lf))
    ends.push(crlf ? ENDING_CRLF : ENDING_LF)
    lens.push(lf + 1 - start)
    start = lf + 1
  }
  texts.push(start === 0 ? text : text.slice(start))
  ends.push(ENDING_NONE)
  lens.push(text.length - start)
}
