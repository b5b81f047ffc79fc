/**
 * Character classes the display layer needs: pairs that must never be split (surrogate
 * pairs, variation sequences, combining marks) and East Asian widths for soft wrap.
 */

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff
const isVariationSelector = (code: number) => code >= 0xfe00 && code <= 0xfe0f

const isCombiningMark = (code: number) =>
  (code >= 0x0300 && code <= 0x036f) ||
  (code >= 0x1ab0 && code <= 0x1aff) ||
  (code >= 0x1dc0 && code <= 0x1dff) ||
  (code >= 0x20d0 && code <= 0x20ff) ||
  (code >= 0xfe20 && code <= 0xfe2f)

/**
 * Whether two adjacent UTF-16 code units belong to one character on screen: a surrogate
 * pair, a character and its variation selector, or a character and a combining mark. The
 * display layer never puts a position or a soft wrap between them.
 *
 * @example isCharacterPair('e', '\u0301') // => true
 */
export const isCharacterPair = (previous: string, next: string): boolean => {
  const a = previous.charCodeAt(0)
  const b = next.charCodeAt(0)
  return (
    (isHighSurrogate(a) && isLowSurrogate(b)) ||
    (!isVariationSelector(a) && isVariationSelector(b)) ||
    (!isCombiningMark(a) && isCombiningMark(b))
  )
}

/** Kana, CJK unified ideographs and full-width forms: two columns wide. */
export const isDoubleWidthCharacter = (character: string): boolean => {
  const code = character.charCodeAt(0)
  return (
    (code >= 0x3000 && code <= 0x30ff) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xff01 && code <= 0xff5e) ||
    (code >= 0xffe0 && code <= 0xffe6)
  )
}

/** Half-width katakana and symbols. */
export const isHalfWidthCharacter = (character: string): boolean => {
  const code = character.charCodeAt(0)
  return (code >= 0xff65 && code <= 0xffdc) || (code >= 0xffe8 && code <= 0xffee)
}

/** Hangul syllables and jamo. */
export const isKoreanCharacter = (character: string): boolean => {
  const code = character.charCodeAt(0)
  return (
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0x3130 && code <= 0x318f) ||
    (code >= 0xa960 && code <= 0xa97f) ||
    (code >= 0xd7b0 && code <= 0xd7ff)
  )
}

/** Any East Asian character: soft wrap may break before each one. */
export const isCJKCharacter = (character: string): boolean =>
  isDoubleWidthCharacter(character) ||
  isHalfWidthCharacter(character) ||
  isKoreanCharacter(character)

const isTabOrSpace = (character: string) => character === ' ' || character === '\t'

/**
 * The default soft-wrap break rule, as in Atom's editor: a line may break before a
 * character that is not a space or tab when it follows a space, a tab, `-` or `/`, and
 * before every East Asian character.
 *
 * @example isWrapBoundary(' ', 'w') // => true ; isWrapBoundary('a', 'b') // => false
 */
export const isWrapBoundary = (previous: string, next: string): boolean =>
  (isTabOrSpace(previous) || previous === '-' || previous === '/') && !isTabOrSpace(next)
    ? true
    : isCJKCharacter(next)

/**
 * The default width of a character in columns, for soft wrap only: 2 for double-width and
 * Korean characters, 1 for the rest. Positions always count one column per code unit.
 *
 * @example ratioForCharacter('漢') // => 2
 */
export const ratioForCharacter = (character: string): number =>
  isDoubleWidthCharacter(character) || isKoreanCharacter(character) ? 2 : 1
