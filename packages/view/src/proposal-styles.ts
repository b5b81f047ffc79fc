/**
 * The style sheet's rules for proposals: the replaced text struck through on a red tint, the
 * proposed text in the program's colour (mixed toward the theme's text colour, so it reads on
 * light and dark) hanging under a bar at its place, and the cards with their buttons. Each mark and card gets the program's colour
 * as `--tandem-proposal-color`; `--tandem-proposal-delete` is the tint of replaced text.
 */

/** Rules for the suggestions layer. */
export const PROPOSAL_CSS = `
.tandem-editor { --tandem-proposal-delete: #d1242f; }
.tandem-editor .tandem-proposals {
  position: absolute;
  inset: 0;
  z-index: 2;
  pointer-events: none;
}
.tandem-editor .tandem-proposal-marks { position: absolute; inset: 0; }
.tandem-editor .tandem-proposal-delete {
  position: absolute;
  background: color-mix(in srgb, var(--tandem-proposal-delete) 22%, transparent);
  background-image: linear-gradient(var(--tandem-proposal-delete), var(--tandem-proposal-delete));
  background-size: 100% 2px;
  background-position: 0 55%;
  background-repeat: no-repeat;
}
.tandem-editor .tandem-proposal-insert {
  position: absolute;
  width: 2px;
  margin-left: -1px;
  background: var(--tandem-proposal-color);
}
.tandem-editor .tandem-proposal-insert-text {
  position: absolute;
  top: 100%;
  left: 0;
  white-space: pre;
  padding: 0 3px;
  /* The program's colour toward the theme's text colour: readable on light and dark alike. */
  color: color-mix(in srgb, var(--tandem-proposal-color) 65%, var(--tandem-text));
  background: color-mix(in srgb, var(--tandem-proposal-color) 14%, var(--tandem-background));
  border: 1px solid color-mix(in srgb, var(--tandem-proposal-color) 45%, transparent);
  border-radius: 0 3px 3px 3px;
  box-shadow: 0 1px 3px rgb(0 0 0 / 12%);
}
.tandem-editor .tandem-proposal-card {
  position: absolute;
  z-index: 1;
  box-sizing: border-box;
  max-width: 320px;
  padding: 6px 8px;
  font: 12px/1.4 system-ui, sans-serif;
  color: var(--tandem-text);
  background: var(--tandem-panel-background);
  border: 1px solid var(--tandem-panel-border);
  border-left: 3px solid var(--tandem-proposal-color);
  border-radius: 6px;
  box-shadow: 0 2px 8px rgb(0 0 0 / 15%);
  pointer-events: auto;
  cursor: default;
  white-space: normal;
}
.tandem-editor .tandem-proposal-author { font-weight: 600; }
.tandem-editor .tandem-proposal-swatch {
  display: inline-block;
  width: 8px;
  height: 8px;
  margin-right: 5px;
  border-radius: 50%;
  background: var(--tandem-proposal-color);
}
.tandem-editor .tandem-proposal-message,
.tandem-editor .tandem-proposal-error { margin: 2px 0 0; }
.tandem-editor .tandem-proposal-error { color: var(--tandem-panel-error); }
.tandem-editor .tandem-proposal-buttons { display: flex; gap: 6px; margin-top: 6px; }
.tandem-editor .tandem-proposal-buttons button {
  font: inherit;
  padding: 1px 10px;
  border: 1px solid var(--tandem-panel-border);
  border-radius: 4px;
  background: var(--tandem-panel-field);
  color: var(--tandem-text);
  cursor: pointer;
}
.tandem-editor .tandem-proposal-buttons .tandem-proposal-accept {
  background: var(--tandem-panel-accent);
  border-color: var(--tandem-panel-accent);
  color: var(--tandem-panel-field);
}
.tandem-editor .tandem-proposal-buttons button:disabled { opacity: 0.5; cursor: not-allowed; }
.tandem-editor .tandem-proposal-buttons button:focus-visible {
  outline: 2px solid var(--tandem-focus-ring);
  outline-offset: 1px;
}
`
