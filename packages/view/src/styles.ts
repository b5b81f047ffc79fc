/// <reference lib="dom" />
/**
 * The view's style sheet: a monospace font, a gutter, carets, selections and the light and
 * dark themes (see theme.ts). Installed once per document; an application overrides it with
 * more specific rules or by setting the custom properties on the editor element.
 */

import { ATTRIBUTION_CSS } from './attribution-legend.js'
import { PANEL_CSS } from './panel-styles.js'
import { ACCESSIBILITY_CSS, PRESENCE_CSS } from './presence-styles.js'
import { PROPOSAL_CSS } from './proposal-styles.js'
import { themeStyles } from './theme.js'

/** The id of the `<style>` element the view adds to the document's head. */
export const STYLE_ELEMENT_ID = 'tandem-view-styles'

const CSS = `
.tandem-editor {
  --tandem-font: ui-monospace, 'DejaVu Sans Mono', 'Liberation Mono', Menlo, Consolas, monospace;
  --tandem-font-size: 14px;
  --tandem-line-height: 1.5;
  position: relative;
  overflow: hidden;
  background: var(--tandem-background);
  color: var(--tandem-text);
  font-family: var(--tandem-font);
  font-size: var(--tandem-font-size);
  line-height: var(--tandem-line-height);
  cursor: text;
}
.tandem-editor .tandem-scroller {
  position: absolute;
  inset: 0;
  overflow: auto;
}
.tandem-editor .tandem-content {
  position: relative;
  display: flex;
  min-width: 100%;
  min-height: 100%;
}
.tandem-editor .tandem-gutter {
  position: sticky;
  left: 0;
  z-index: 3;
  flex: none;
  box-sizing: border-box;
  background: var(--tandem-gutter-background);
  border-right: 1px solid var(--tandem-gutter-border);
  color: var(--tandem-gutter-text);
  user-select: none;
  cursor: default;
}
.tandem-editor .tandem-line-number {
  position: absolute;
  left: 0;
  right: 0;
  padding: 0 0.6em 0 0.8em;
  text-align: right;
  white-space: pre;
}
.tandem-editor .tandem-line-number.cursor-line {
  color: var(--tandem-gutter-current);
  background: var(--tandem-gutter-current-background);
}
.tandem-editor .tandem-line-number.folded::after {
  content: '\\25B8';
  position: absolute;
  left: 0.15em;
}
.tandem-editor .tandem-lines {
  position: relative;
  flex: 1 0 auto;
  margin-left: 0.5em;
}
.tandem-editor .tandem-line {
  position: absolute;
  left: 0;
  white-space: pre;
  z-index: 1;
}
.tandem-editor .tandem-fold-marker {
  display: inline-block;
  width: 1ch;
  overflow: visible;
  border-radius: 3px;
  background: var(--tandem-fold);
  color: var(--tandem-fold-text);
  text-align: center;
  cursor: pointer;
}
.tandem-editor .tandem-highlights,
.tandem-editor .tandem-cursors {
  position: absolute;
  inset: 0;
  pointer-events: none;
}
.tandem-editor .tandem-highlights { z-index: 0; }
.tandem-editor .tandem-cursors { z-index: 2; }
.tandem-editor .tandem-selection {
  position: absolute;
  background: var(--tandem-selection);
}
.tandem-editor:not(.is-focused) .tandem-selection { background: var(--tandem-selection-unfocused); }
.tandem-editor .tandem-cursor {
  position: absolute;
  width: 2px;
  margin-left: -1px;
  background: var(--tandem-caret);
}
.tandem-editor:not(.is-focused) .tandem-cursor { opacity: 0.45; }
.tandem-editor.is-focused.cursor-blink .tandem-cursor {
  animation: tandem-blink 1.06s step-end infinite;
}
@keyframes tandem-blink { 50% { opacity: 0; } }
.tandem-editor .tandem-remote-selection {
  position: absolute;
}
.tandem-editor .tandem-remote-cursor {
  position: absolute;
  width: 2px;
  margin-left: -1px;
}
.tandem-editor .tandem-remote-label {
  position: absolute;
  left: -1px;
  bottom: 100%;
  padding: 0 4px;
  border-radius: 3px 3px 3px 0;
  color: #ffffff;
  font-family: system-ui, sans-serif;
  font-size: 11px;
  font-weight: 600;
  line-height: 16px;
  white-space: nowrap;
}
.tandem-editor .tandem-remote-label.below {
  top: 100%;
  bottom: auto;
  border-radius: 0 3px 3px 3px;
}
.tandem-editor .tandem-remote-cursor.own-tab { opacity: 0.6; }
.tandem-editor .tandem-input {
  position: absolute;
  z-index: -1;
  width: 1px;
  padding: 0;
  border: 0;
  margin: 0;
  outline: none;
  resize: none;
  overflow: hidden;
  opacity: 0;
  white-space: pre;
  font: inherit;
  color: transparent;
  background: transparent;
}
.tandem-editor .tandem-composition {
  position: absolute;
  z-index: 2;
  white-space: pre;
  background: var(--tandem-background);
  text-decoration: underline;
  pointer-events: none;
}
.tandem-editor .tandem-measure-box {
  position: absolute;
  top: 0;
  left: 0;
  width: 0;
  height: 0;
  overflow: hidden;
  visibility: hidden;
  pointer-events: none;
}
.tandem-editor .tandem-probe {
  position: absolute;
  top: 0;
  left: 0;
  white-space: pre;
  visibility: hidden;
  pointer-events: none;
}
.tandem-editor .tandem-measure {
  position: absolute;
  visibility: hidden;
  white-space: pre;
}
`

/**
 * Adds the style sheet to `document` unless it is there already.
 *
 * @example installStyles(element.ownerDocument)
 */
export const installStyles = (document: Document): void => {
  if (document.getElementById(STYLE_ELEMENT_ID) !== null) return
  const style = document.createElement('style')
  style.id = STYLE_ELEMENT_ID
  // Other peers and accessibility: their own block (presence-styles.ts), after the theme.
  style.textContent = `${themeStyles()}\n${CSS}${PRESENCE_CSS}${ACCESSIBILITY_CSS}${PANEL_CSS}${ATTRIBUTION_CSS}${PROPOSAL_CSS}`
  document.head.appendChild(style)
}
