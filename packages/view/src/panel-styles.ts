/**
 * Styles of what the view draws besides text: the find bar, the go-to-line box and the
 * pending-chord hint (panels over the editor's top or bottom edge), find results and the
 * bracket pair at the cursor (highlights under the text).
 */

/** The panels' and highlights' rules, appended to the view's style sheet. */
export const PANEL_CSS = `
.tandem-editor .tandem-line-number.folded,
.tandem-editor .tandem-line-number.foldable { cursor: pointer; }
.tandem-editor .tandem-line-number.foldable::after {
  content: '\\25BE';
  position: absolute;
  left: 0.15em;
  opacity: 0.7;
}
.tandem-editor .tandem-highlights .tandem-selection { z-index: 1; }
.tandem-editor .tandem-highlight.find-result {
  position: absolute;
  box-sizing: border-box;
  background: var(--tandem-find-match);
  border-radius: 2px;
}
.tandem-editor .tandem-highlight.find-result.current-result {
  outline: 1px solid var(--tandem-find-match-border);
}
.tandem-editor .tandem-highlight.bracket-matcher {
  position: absolute;
  box-sizing: border-box;
  border: 1px solid var(--tandem-bracket-match);
  border-radius: 2px;
}
.tandem-editor .tandem-panel {
  position: absolute;
  z-index: 5;
  right: 14px;
  box-sizing: border-box;
  max-width: calc(100% - 28px);
  padding: 6px 8px;
  border: 1px solid var(--tandem-panel-border);
  background: var(--tandem-panel-background);
  color: var(--tandem-text);
  font: 13px/1.4 system-ui, sans-serif;
  cursor: default;
  box-shadow: 0 2px 8px rgb(0 0 0 / 0.18);
}
.tandem-editor .tandem-panel[hidden] { display: none; }
.tandem-editor .tandem-find-bar {
  top: 0;
  left: 0;
  right: 0;
  max-width: none;
  border-width: 0 0 1px;
  box-shadow: none;
}
.tandem-editor .tandem-find-bar .tandem-panel-row > input { max-width: 28em; }
.tandem-editor .tandem-go-to-line {
  top: 0;
  border-top: 0;
  border-radius: 0 0 6px 6px;
}
.tandem-editor .tandem-panel-row {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 4px;
}
.tandem-editor .tandem-panel-row + .tandem-panel-row { margin-top: 4px; }
.tandem-editor .tandem-panel input {
  box-sizing: border-box;
  width: 16em;
  min-width: 6em;
  flex: 1 1 auto;
  padding: 2px 6px;
  border: 1px solid var(--tandem-panel-border);
  border-radius: 4px;
  background: var(--tandem-panel-field);
  color: var(--tandem-text);
  font: 13px/1.5 var(--tandem-font);
}
.tandem-editor .tandem-panel input:focus {
  outline: 2px solid var(--tandem-panel-accent);
  outline-offset: -1px;
}
.tandem-editor .tandem-panel input[aria-invalid='true'] { border-color: var(--tandem-panel-error); }
.tandem-editor .tandem-panel button {
  min-width: 24px;
  height: 24px;
  padding: 0 6px;
  border: 1px solid transparent;
  border-radius: 4px;
  background: transparent;
  color: inherit;
  font: inherit;
  cursor: pointer;
}
.tandem-editor .tandem-panel button:hover { border-color: var(--tandem-panel-border); }
.tandem-editor .tandem-panel button:focus-visible { outline: 2px solid var(--tandem-panel-accent); }
.tandem-editor .tandem-panel button[aria-pressed='true'] {
  border-color: var(--tandem-panel-accent);
  color: var(--tandem-panel-accent);
}
.tandem-editor .tandem-panel .tandem-toggle { font-family: var(--tandem-font); }
.tandem-editor .tandem-find-count {
  min-width: 6.5em;
  padding: 0 4px;
  white-space: nowrap;
  font-variant-numeric: tabular-nums;
}
.tandem-editor .tandem-find-count.is-error { color: var(--tandem-panel-error); }
.tandem-editor .tandem-go-to-line-hint { margin-top: 4px; opacity: 0.8; }
.tandem-editor .tandem-chord-hint {
  bottom: 8px;
  padding: 2px 8px;
  border-radius: 4px;
  font-size: 12px;
  pointer-events: none;
}
.tandem-editor .tandem-chord-hint:empty {
  opacity: 0;
  padding: 0;
  border: 0;
  box-shadow: none;
}
`
