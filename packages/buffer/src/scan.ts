import { Range } from '@tandem/text'
import type { TextBuffer } from './text-buffer.js'

/** One match found by a scan. */
export interface ScanResult {
  /** The RegExp match (indices relative to the scanned text). */
  readonly match: RegExpExecArray
  readonly matchText: string
  /** Where the match is in the buffer. */
  readonly range: Range
  /** Ends the scan after this callback. */
  stop(): void
  /** Replaces the match once the scan ends (all replacements form one transaction). */
  replace(text: string): void
}

/** Called for each match of a scan. */
export type ScanCallback = (result: ScanResult) => void

/**
 * Runs `regex` over the text of `range` and calls `callback` per match (last first when
 * `backwards`). Empty matches advance by one character so a scan always ends. Replacements
 * are applied after the scan, last first, in one transaction.
 *
 * @example scanInRange(buffer, /\d+/g, buffer.getRange(), ({ matchText }) => log(matchText), false)
 */
export const scanInRange = (
  buffer: TextBuffer,
  regex: RegExp,
  range: Range,
  callback: ScanCallback,
  backwards: boolean,
): void => {
  if (!(regex instanceof RegExp)) throw new TypeError('regex must be a RegExp')
  if (typeof callback !== 'function') throw new TypeError('callback must be a function')
  const flags = regex.flags.includes('g') ? regex.flags : `${regex.flags}g`
  const pattern = new RegExp(regex.source, flags)
  const text = buffer.getTextInRange(range)
  const base = buffer.characterIndexForPosition(range.start)
  const replacements: Array<{ range: Range; text: string }> = []
  let stopped = false
  const visit = (match: RegExpExecArray): void => {
    const start = buffer.positionForCharacterIndex(base + match.index)
    const end = buffer.positionForCharacterIndex(base + match.index + match[0].length)
    callback({
      match,
      matchText: match[0],
      range: new Range(start, end),
      stop: () => {
        stopped = true
      },
      replace: (replacement: string) => {
        replacements.push({ range: new Range(start, end), text: replacement })
      },
    })
  }
  const next = (): RegExpExecArray | null => {
    const match = pattern.exec(text)
    // An empty match would be found again at the same place: step over it.
    if (match !== null && match[0].length === 0) pattern.lastIndex++
    return match
  }
  if (backwards) {
    const matches: RegExpExecArray[] = []
    for (let match = next(); match !== null; match = next()) matches.push(match)
    for (let i = matches.length - 1; i >= 0 && !stopped; i--) visit(matches[i]!)
  } else {
    for (let match = next(); match !== null && !stopped; match = next()) visit(match)
  }
  if (replacements.length === 0) return
  replacements.sort((a, b) => b.range.start.compare(a.range.start))
  buffer.transact(() => {
    for (const r of replacements) buffer.setTextInRange(r.range, r.text)
  })
}
