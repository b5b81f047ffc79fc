import { type Disposable, Emitter } from '@tandem/text'
import type { DisplayMarker, DisplayMarkerLayer } from './display-marker.js'

/** What a decoration asks the view to draw: `type` (`cursor`, `highlight`, `line`, ...), `class`, and more. */
export interface DecorationProperties {
  /** What to draw: `cursor`, `highlight`, `line`, `line-number`, ... */
  type: string
  /** The CSS class the view gives what it draws. */
  class?: string
  [key: string]: unknown
}

let nextDecorationId = 1

/**
 * A request to draw something for a marker (or every marker of a layer): Atom's Decoration.
 * The model only keeps it; a view reads it and renders.
 *
 * @example const decoration = editor.decorateMarker(marker, { type: 'highlight', class: 'found' })
 */
export class Decoration {
  /** A unique id. */
  readonly id = nextDecorationId++
  private properties: DecorationProperties
  private destroyed = false
  private readonly emitter = new Emitter<{
    'did-change-properties': {
      oldProperties: DecorationProperties
      newProperties: DecorationProperties
    }
    'did-destroy': undefined
  }>()

  /**
   * Made by `DecorationSet.decorate`; decorate with `TextEditor.decorateMarker`.
   *
   * @internal
   */
  constructor(
    /** The marker, or the layer of markers, decorated. */
    readonly target: DisplayMarker | DisplayMarkerLayer,
    properties: DecorationProperties,
    private readonly owner: DecorationSet,
  ) {
    this.properties = { ...properties }
  }

  /** The decorated marker (undefined for a layer decoration). */
  getMarker(): DisplayMarker | undefined {
    return 'bufferMarker' in this.target ? this.target : undefined
  }

  /** The decoration's properties. */
  getProperties(): Readonly<DecorationProperties> {
    return this.properties
  }

  /** Replaces the properties. */
  setProperties(properties: DecorationProperties): void {
    if (this.destroyed) return
    const oldProperties = this.properties
    this.properties = { ...properties }
    this.emitter.emit('did-change-properties', { oldProperties, newProperties: this.properties })
    this.owner.didUpdate()
  }

  /** Whether it is of `type` (or one of the types). */
  isType(type: string | readonly string[]): boolean {
    return typeof type === 'string'
      ? this.properties.type === type
      : type.includes(this.properties.type)
  }

  /** Whether it was destroyed. */
  isDestroyed(): boolean {
    return this.destroyed
  }

  /** Removes the decoration. Safe to call twice. */
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.owner.remove(this)
    this.emitter.emit('did-destroy')
    this.emitter.dispose()
  }

  /** Calls `callback` when the properties change. */
  onDidChangeProperties(
    callback: (event: {
      oldProperties: DecorationProperties
      newProperties: DecorationProperties
    }) => void,
  ): Disposable {
    return this.emitter.on('did-change-properties', callback)
  }

  /** Calls `callback` once when the decoration is destroyed. */
  onDidDestroy(callback: () => void): Disposable {
    return this.emitter.once('did-destroy', callback)
  }
}

/**
 * The decorations of one editor. Decorations of a marker go when the marker is destroyed.
 *
 * @example const set = new DecorationSet(); set.decorate(marker, { type: 'cursor' })
 */
export class DecorationSet {
  private readonly decorations = new Set<Decoration>()
  private readonly emitter = new Emitter<{
    'did-add-decoration': Decoration
    'did-remove-decoration': Decoration
    'did-update-decorations': undefined
  }>()

  /** Decorates a marker or a whole marker layer. */
  decorate(
    target: DisplayMarker | DisplayMarkerLayer,
    properties: DecorationProperties,
  ): Decoration {
    if (typeof properties?.type !== 'string') {
      throw new TypeError('decoration properties need a string `type`')
    }
    const decoration = new Decoration(target, properties, this)
    this.decorations.add(decoration)
    if ('bufferMarker' in target) {
      if (target.isDestroyed()) throw new Error('cannot decorate a destroyed marker')
      target.onDidDestroy(() => decoration.destroy())
    }
    this.emitter.emit('did-add-decoration', decoration)
    this.didUpdate()
    return decoration
  }

  /** Decorations whose properties include every entry of `filter`. */
  getDecorations(filter: Partial<DecorationProperties> = {}): Decoration[] {
    const entries = Object.entries(filter)
    return [...this.decorations].filter((decoration) => {
      const properties = decoration.getProperties()
      return entries.every(([key, value]) => properties[key] === value)
    })
  }

  /** Calls `callback` with each new decoration. */
  onDidAddDecoration(callback: (decoration: Decoration) => void): Disposable {
    return this.emitter.on('did-add-decoration', callback)
  }

  /** Calls `callback` with each removed decoration. */
  onDidRemoveDecoration(callback: (decoration: Decoration) => void): Disposable {
    return this.emitter.on('did-remove-decoration', callback)
  }

  /** Calls `callback` after any decoration was added, changed or removed. */
  onDidUpdateDecorations(callback: () => void): Disposable {
    return this.emitter.on('did-update-decorations', callback)
  }

  /** @internal Forgets a destroyed decoration. */
  remove(decoration: Decoration): void {
    if (!this.decorations.delete(decoration)) return
    this.emitter.emit('did-remove-decoration', decoration)
    this.didUpdate()
  }

  /** @internal Tells listeners something changed. */
  didUpdate(): void {
    this.emitter.emit('did-update-decorations')
  }

  /** Destroys every decoration. */
  destroy(): void {
    for (const decoration of [...this.decorations]) decoration.destroy()
    this.emitter.dispose()
  }
}
