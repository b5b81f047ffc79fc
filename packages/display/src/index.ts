/**
 * @tandem/display: screen coordinates over a Tandem text buffer. Folds hide text behind one
 * placeholder, hard tabs widen to tab stops and soft wrap splits long lines, as in Atom's
 * display layer; buffer <-> screen conversions name their clip direction.
 *
 * @module @tandem/display
 */
export {
  isCharacterPair,
  isCJKCharacter,
  isDoubleWidthCharacter,
  isHalfWidthCharacter,
  isKoreanCharacter,
  isWrapBoundary,
  ratioForCharacter,
} from './characters.js'
export {
  type DisplayChange,
  DisplayLayer,
  type DisplayLayerOptions,
  type DisplayLayerSettings,
  type TranslateOptions,
} from './display-layer.js'
export type { ScreenLine } from './screen-lines.js'
export type { ClipDirection } from './translate.js'
