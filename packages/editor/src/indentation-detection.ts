import type { BufferChangeEvent, TextBuffer } from '@tandem/buffer'
import {
  ATOM_DEFAULT_INDENTATION,
  detectIndentation,
  type IndentationSettings,
  LANGUAGES,
  MAX_DETECTION_ROWS,
  resolveIndentation,
} from '@tandem/language'
import { CompositeDisposable, type Disposable } from '@tandem/text'

/** What indentation detection needs of its editor. */
export interface IndentationHost {
  /** The text to look at. */
  readonly buffer: TextBuffer
  /** The id of the editor's language, for its comment tokens and default indentation. */
  getGrammar(): string
  /** Calls `callback` when the language changes. */
  onDidChangeGrammar(callback: (id: string) => void): Disposable
}

/** The indentation options an application gave its editor. */
export interface IndentationOptions {
  /** Indent with spaces: given, detection leaves it alone. */
  readonly softTabs?: boolean
  /** Columns per indentation level: given, detection leaves it alone. */
  readonly tabLength?: number
  /** False: never detect; what is not given is Atom's default (two spaces). */
  readonly detectIndentation?: boolean
}

const languageOf = (id: string) => LANGUAGES.find((language) => language.id === id)

/**
 * Keeps an editor's indentation unit (soft tabs, tab length) in step with its text: detected
 * when the editor is made, when its whole text is set, when a document that was empty
 * arrives from a peer, and when its language changes before anyone edited; each field the
 * application chose stays as chosen. With no indented rows, the language's default applies.
 *
 * @example const detection = new IndentationDetection(editor, { tabLength: 8 }, apply)
 */
export class IndentationDetection {
  /** The unit to start with, before any change. */
  readonly initial: IndentationSettings
  private readonly explicit: { -readonly [K in keyof IndentationSettings]?: IndentationSettings[K] }
  private readonly enabled: boolean
  private readonly subscriptions = new CompositeDisposable()
  /** The text was empty when the editor was made and nobody has edited it here since. */
  private waitingForText: boolean
  private editedSinceDetection = false

  /** Detects the initial unit and follows `host`; `apply` receives each later unit. */
  constructor(
    private readonly host: IndentationHost,
    options: IndentationOptions,
    private readonly apply: (unit: IndentationSettings) => void,
  ) {
    this.explicit = { softTabs: options.softTabs, tabLength: options.tabLength }
    // With both given there is nothing left to detect.
    this.enabled =
      options.detectIndentation !== false &&
      (options.softTabs === undefined || options.tabLength === undefined)
    this.initial = this.detect()
    this.waitingForText = host.buffer.isEmpty()
    if (!this.enabled) return
    this.subscriptions.add(
      host.buffer.onDidChange((event) => this.textDidChange(event)),
      host.onDidChangeGrammar(() => {
        if (!this.editedSinceDetection) this.redetect()
      }),
    )
  }

  /** The application set `field` itself: detection leaves it alone from now on. */
  choose<K extends keyof IndentationSettings>(field: K, value: IndentationSettings[K]): void {
    this.explicit[field] = value
  }

  /** The editor's whole text was replaced. */
  textWasSet(): void {
    if (this.enabled) this.redetect()
  }

  /** Stops following the editor. */
  dispose(): void {
    this.subscriptions.dispose()
  }

  private textDidChange(event: BufferChangeEvent): void {
    if (event.local) {
      this.editedSinceDetection = true
      this.waitingForText = false
    } else if (this.waitingForText && !this.host.buffer.isEmpty()) {
      this.waitingForText = false
      this.redetect()
    }
  }

  private redetect(): void {
    if (this.explicit.softTabs !== undefined && this.explicit.tabLength !== undefined) return
    this.editedSinceDetection = false
    this.apply(this.detect())
  }

  private detect(): IndentationSettings {
    if (!this.enabled) return resolveIndentation(this.explicit, {}, ATOM_DEFAULT_INDENTATION)
    const { buffer } = this.host
    const language = languageOf(this.host.getGrammar())
    const lines: string[] = []
    const end = Math.min(buffer.getLineCount(), MAX_DETECTION_ROWS)
    for (let row = 0; row < end; row++) lines.push(buffer.lineForRow(row) ?? '')
    const guess = detectIndentation(lines, language?.comments)
    return resolveIndentation(
      this.explicit,
      guess,
      language?.defaultIndentation ?? ATOM_DEFAULT_INDENTATION,
    )
  }
}
