// The `cloudapi` command line: parses with commander over the generated command table, then
// runs the chosen operation (execute.ts, loaded only then). `run` is the whole program for a list
// of arguments and an Io, so tests run it in-process; `main` runs it on the process.
import { CommanderError } from './commander.js';
import { complete, completionScript } from './completion.js';
import { EXIT, UsageError } from './errors.js';
import { processIo, type Io } from './io.js';
import { buildProgram, type Selected } from './program.js';
import { loadTable } from './table.js';
import { terminalSafe } from './terminal.js';

/** The first word that is not an option (nor the value of --profile): the area typed. */
function areaOf(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--profile') i += 1;
    else if (!argv[i]!.startsWith('-')) return argv[i];
  }
  return undefined;
}

export async function run(argv: string[], given: Io): Promise<number> {
  // Everything printed passes through here: the server's values never reach the terminal raw.
  const io = terminalSafe(given);
  const table = loadTable();
  if (argv[0] === '__complete') {
    io.stdout(complete(table, argv.slice(1)).map((word) => `${word}\n`).join(''));
    return EXIT.done;
  }
  let selected: Selected | undefined;
  let special: (() => Promise<number>) | undefined;
  const program = buildProgram(table, io, areaOf(argv), (chosen) => { selected = chosen; });
  program.command('configure')
    .summary('write a profile (token and base URL) to the config file, mode 0600 under $XDG_CONFIG_HOME/cloudapi; --profile names it')
    .description('Writes a profile (token and base URL) to the config file, mode 0600 under $XDG_CONFIG_HOME/cloudapi; --profile names it. With no flag it asks at a terminal (the token is not shown as you type), or reads the token from standard input: cloudapi configure < token-file.')
    .option('--token <token>', 'the personal access token; - reads it from standard input (a token on the command line stays in the shell\'s history)')
    .option('--base-url <url>', `the API's base URL (default ${table.baseUrl})`)
    .action(async (options: { token?: string; baseUrl?: string }, command) => {
      const { configure } = await import('./configure.js');
      special = () => configure({ ...options, profile: command.optsWithGlobals().profile }, io, table.baseUrl);
    });
  program.command('completion')
    .description('print the shell completion script: eval "$(cloudapi completion bash)"')
    .argument('<shell>', 'bash, zsh or fish')
    .action((shell: string) => { special = async () => { io.stdout(completionScript(shell)); return EXIT.done; }; });

  let debug = argv.includes('--debug');
  try {
    await program.parseAsync(argv, { from: 'user' });
    if (special) return await special();
    if (!selected) {
      io.stderr(program.helpInformation());
      return EXIT.usage;
    }
    const { spec, command, positionals, options } = selected;
    const opts = command.optsWithGlobals() as Record<string, any>;
    debug = Boolean(opts.debug);
    const flags = new Map<string, unknown>();
    for (const [flag, option] of options) if (opts[option.attributeName()] !== undefined) flags.set(flag, opts[option.attributeName()]);
    const { execute } = await import('./execute.js');
    return await execute(spec, { positionals, flags, data: opts.data, filter: opts.filter }, opts, io, table);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and the version asked for are done; anything else commander refused is a usage error.
      return error.exitCode === 0 ? EXIT.done : EXIT.usage;
    }
    if (error instanceof UsageError) {
      io.stderr(`${error.lines.map((line) => `error: ${line}`).join('\n')}\n${error.helpCommand ? `(cloudapi ${error.helpCommand} --help lists every flag)\n` : ''}`);
      return EXIT.usage;
    }
    io.stderr(`cloudapi: ${(error as Error)?.message ?? String(error)}\n${debug && (error as Error)?.stack ? `${(error as Error).stack}\n` : ''}`);
    return EXIT.refused;
  }
}

export async function main(): Promise<void> {
  // A reader that stops early (`cloudapi volumes list | head -1`) is not an error.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', (error: NodeJS.ErrnoException) => { if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0); else throw error; });
  process.exitCode = await run(process.argv.slice(2), processIo());
}
