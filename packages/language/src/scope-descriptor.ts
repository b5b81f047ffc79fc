/**
 * The scopes at a position, outermost first, as in Atom.
 *
 * @example new ScopeDescriptor(['text.plain.null-grammar']).getScopesArray()
 */
export class ScopeDescriptor {
  private readonly scopes: readonly string[]

  /** Makes a descriptor from scope names, outermost first. */
  constructor(scopes: readonly string[]) {
    this.scopes = Object.freeze([...scopes])
  }

  /** The scope names, outermost first. */
  getScopesArray(): string[] {
    return [...this.scopes]
  }

  /** The scopes as a CSS-like selector: `.source.js .string.quoted`. */
  getScopeChain(): string {
    return this.scopes.map((scope) => `.${scope.replace(/ /g, '.')}`).join(' ')
  }

  /** Same as `getScopeChain`. */
  toString(): string {
    return this.getScopeChain()
  }

  /** Whether both hold the same scopes. */
  isEqual(other: ScopeDescriptor): boolean {
    const theirs = other.getScopesArray()
    return theirs.length === this.scopes.length && theirs.every((s, i) => s === this.scopes[i])
  }
}
