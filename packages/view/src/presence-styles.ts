/**
 * The style sheet's rules for other peers and for accessibility, kept apart from the theme:
 * remote selections in the peer's color at an alpha that shows on light and dark backgrounds
 * alike while the text over them stays readable, name labels that fade, idle carets that dim,
 * the focus ring and the live region. Every value an application may want to change is a
 * custom property on `.tandem-editor`:
 *
 * - `--tandem-remote-selection-alpha`: how much of the peer's color a remote selection shows
 *   (a percentage, default 35%).
 * - `--tandem-remote-caret-idle-opacity`: an idle peer's caret (default 0.35).
 * - `--tandem-remote-label-text`: the text color of name labels (default white).
 * - `--tandem-remote-label-fade`: how long a label takes to fade out (default 250ms).
 * - `--tandem-focus-ring`: the ring drawn round the editor while it has the focus.
 *
 * Each remote box gets its peer's color as `--tandem-peer-color`.
 */

/** Rules for remote carets, labels and selections. */
export const PRESENCE_CSS = `
.tandem-editor {
  --tandem-remote-selection-alpha: 35%;
  --tandem-remote-caret-idle-opacity: 0.35;
  --tandem-remote-label-text: #ffffff;
  --tandem-remote-label-fade: 250ms;
}
.tandem-editor .tandem-remote-selection {
  background-color: color-mix(in srgb, var(--tandem-peer-color, #8c959f) var(--tandem-remote-selection-alpha), transparent);
}
.tandem-editor .tandem-remote-cursor {
  background-color: var(--tandem-peer-color, #8c959f);
  pointer-events: auto;
  transition: opacity 300ms;
}
.tandem-editor .tandem-remote-cursor::before {
  content: '';
  position: absolute;
  top: 0;
  bottom: 0;
  left: -4px;
  right: -4px;
}
.tandem-editor .tandem-remote-cursor.is-idle { opacity: var(--tandem-remote-caret-idle-opacity); }
.tandem-editor .tandem-remote-cursor:hover { opacity: 1; }
.tandem-editor .tandem-remote-label {
  z-index: 1;
  background-color: var(--tandem-peer-color, #8c959f);
  color: var(--tandem-remote-label-text);
  pointer-events: none;
  opacity: 0;
  visibility: hidden;
  transition: opacity var(--tandem-remote-label-fade) ease-out, visibility 0s linear var(--tandem-remote-label-fade);
}
/* A program's label carries a small "agent" badge after its name. */
.tandem-editor .tandem-remote-label.is-agent::after {
  content: 'agent';
  margin-left: 4px;
  padding: 0 3px;
  border-radius: 2px;
  background-color: rgba(255, 255, 255, 0.3);
  font-size: 85%;
}
.tandem-editor .tandem-remote-label.is-shown,
.tandem-editor .tandem-remote-cursor:hover .tandem-remote-label {
  opacity: 1;
  visibility: visible;
  transition: opacity 80ms ease-in, visibility 0s;
}
`

/** Rules for the focus ring and the live region. */
export const ACCESSIBILITY_CSS = `
.tandem-editor { --tandem-focus-ring: #0969da; }
.tandem-editor.is-focused::after {
  content: '';
  position: absolute;
  inset: 0;
  z-index: 5;
  border: 2px solid var(--tandem-focus-ring);
  pointer-events: none;
}
.tandem-editor .tandem-live-region {
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
}
`
