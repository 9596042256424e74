// What a run reads and writes, so that tests run the command line in-process.

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The whole of standard input (for `--data -`, and a token piped to `cloudapi configure`). */
  readStdin(): Promise<string>;
  env: Record<string, string | undefined>;
  /** Whether standard input is a terminal (`cloudapi configure` prompts then). */
  interactive: boolean;
  /** A line typed at a prompt; `secret`: typed without being shown (a token). */
  prompt(question: string, options?: { secret?: boolean }): Promise<string>;
}

/** The process's own streams and environment. */
export function processIo(): Io {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    env: process.env,
    interactive: Boolean(process.stdin.isTTY),
    prompt: async (question, { secret = false } = {}) => {
      if (secret) {
        const { readSecret } = await import('./secret-prompt.js');
        return (await readSecret(process.stdin, process.stderr, question)).trim();
      }
      const { createInterface } = await import('node:readline/promises');
      const readline = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return (await readline.question(question)).trim();
      } finally {
        readline.close();
      }
    },
  };
}
