/** Extra data stored with clipboard text (`indentBasis`, `fullLine`, per-selection pieces). */
export type ClipboardMetadata = Record<string, unknown>

/** Where a clipboard keeps its text: memory by default, the system clipboard in a view. */
export interface ClipboardStore {
  /** The text last written. */
  readText(): string
  /** Replaces the stored text. */
  writeText(text: string): void
}

const memoryStore = (): ClipboardStore => {
  let text = ''
  return {
    readText: () => text,
    writeText: (value) => {
      text = value
    },
  }
}

/**
 * Atom's Clipboard: text plus metadata. The metadata only counts while the stored text is
 * still what was written with it; once something else changed the text, `readWithMetadata`
 * returns the text alone.
 *
 * @example const clipboard = new Clipboard(); clipboard.write('a', { fullLine: true }); clipboard.readWithMetadata()
 */
export class Clipboard {
  private metadata: ClipboardMetadata | null = null
  private signature: string | null = null

  /** A clipboard over `store` (default: in memory). */
  constructor(private readonly store: ClipboardStore = memoryStore()) {}

  /** Stores `text` with its line endings made `\n` (as Atom does), with optional metadata. */
  write(text: string, metadata?: ClipboardMetadata): void {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${typeof text}`)
    text = text.replace(/\r?\n/g, '\n')
    this.signature = text
    this.metadata = metadata ?? null
    this.store.writeText(text)
  }

  /** The stored text. */
  read(): string {
    return this.store.readText()
  }

  /** The stored text, and its metadata if the text is still the one written with it. */
  readWithMetadata(): {
    /** The stored text. */
    text: string
    /** Its metadata, or null when the text was written without it or changed since. */
    metadata: ClipboardMetadata | null
  } {
    const text = this.read()
    return { text, metadata: text === this.signature ? this.metadata : null }
  }
}
