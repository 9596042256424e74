// The three ways a run ends (DESIGN.md): 0 done, 1 the API refused (or could not be reached),
// 2 a usage error found before anything was sent.
export const EXIT = { done: 0, refused: 1, usage: 2 } as const;

/** A mistake in the command line: printed as its lines, never with a stack trace; exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(readonly lines: string[], readonly helpCommand?: string) {
    super(lines.join('\n'));
  }
}
