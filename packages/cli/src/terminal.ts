// What reaches the terminal is text, never a command to it. Values come from the server (a
// volume's label, an error's reason, a body under --debug) and a terminal obeys the control
// characters among them: ESC starts sequences that move the cursor, retitle the window, rewrite
// what was printed or (on some terminals) answer back into the input; C1 codes (U+0080–U+009F)
// are 8-bit forms of the same; a carriage return or backspace overwrites a line; bidi overrides
// (U+202A–U+202E, U+2066–U+2069, the marks) reorder what is shown. Every one is printed as its
// `\uXXXX` escape: readable, and valid inside a JSON string, so `--json` output stays JSON with
// the same values. Tab and line feed are kept: the output's own layout uses them.
import type { Io } from './io.js';

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escapeOne = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The text with every control character but tab and line feed written as its `\uXXXX` escape. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, escapeOne);
}

/** An Io whose standard output and error carry no control character of anyone else's. */
export function terminalSafe(io: Io): Io {
  return { ...io, stdout: (text) => io.stdout(escapeControls(text)), stderr: (text) => io.stderr(escapeControls(text)) };
}
