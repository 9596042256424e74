// A line read from the terminal without showing it: the terminal's echo is off while it is typed
// (raw mode), so a token never appears on screen, in a screen recording or in the scrollback.
// Enter ends it, Backspace takes back a character, Ctrl-C interrupts as it would anywhere else,
// Ctrl-D on an empty line ends it empty; the sequences of arrow and function keys are ignored.
import { StringDecoder } from 'node:string_decoder';
import type { ReadStream } from 'node:tty';

const ENTER = new Set(['\r', '\n']);
const ERASE = new Set(['\u007f', '\b']);
const INTERRUPT = '\u0003';
const END = '\u0004';
const ESCAPE = '\u001b';
/** The rest of a key's escape sequence (`ESC [ A`, `ESC O P`, `ESC [ 1 5 ~`): what may follow ESC, then its final character. */
const SEQUENCE_START = new Set(['[', 'O']);
const isSequenceEnd = (char: string) => char >= '@' && char <= '~';

/**
 * Reads one line from a terminal with its echo off; `question` is written to `output` once the echo
 * is off, so that what is typed (or pasted) as soon as the question shows is never echoed.
 */
export function readSecret(input: ReadStream, output: NodeJS.WritableStream, question: string): Promise<string> {
  return new Promise((resolve) => {
    const decoder = new StringDecoder('utf8');
    const wasRaw = input.isRaw;
    let typed: string[] = [];
    let sequence: 'none' | 'escape' | 'inside' = 'none';
    const done = () => {
      input.off('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write('\n');
    };
    const onData = (chunk: Buffer) => {
      for (const char of decoder.write(chunk)) {
        if (sequence === 'escape') { sequence = SEQUENCE_START.has(char) ? 'inside' : 'none'; continue; }
        if (sequence === 'inside') { if (isSequenceEnd(char)) sequence = 'none'; continue; }
        if (char === ESCAPE) { sequence = 'escape'; continue; }
        if (ENTER.has(char) || (char === END && !typed.length)) {
          done();
          resolve(typed.join(''));
          return;
        }
        if (char === INTERRUPT) {
          // The terminal is given back first; then the process is interrupted as Ctrl-C does.
          done();
          process.kill(process.pid, 'SIGINT');
          return;
        }
        if (ERASE.has(char)) typed = typed.slice(0, -1);
        else if (char >= ' ') typed.push(char);
      }
    };
    input.setRawMode(true);
    output.write(question);
    input.on('data', onData);
    input.resume();
  });
}
