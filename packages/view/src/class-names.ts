/**
 * Class names of the elements the view draws that other modules look for: rows, and the
 * placeholder a fold shows as.
 */

/** Class of a row element. */
export const LINE_CLASS = 'tandem-line'

/** Class of the element a fold shows as. */
export const FOLD_MARKER_CLASS = 'tandem-fold-marker'
