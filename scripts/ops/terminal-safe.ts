/**
 * Stored strings shown on a terminal: the one escaper every tool uses, which also covers bidi
 * controls, U+FEFF and other invisible format characters (scripts/shared/terminal-text.ts).
 */
export { terminalText as terminalSafe } from '../shared/terminal-text.js';
