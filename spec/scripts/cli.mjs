// The repository's command-line convention, on commander: `--help` prints the usage and exits 0;
// an unknown flag, a missing value or a stray argument prints the problem and the usage to
// stderr and exits 2. Every bin builds its parser with command() and reads it with parse().
import { Command, InvalidArgumentError, Option } from 'commander';

export { InvalidArgumentError, Option };

/** A commander program named `name` that follows the convention. */
export function command(name, description) {
  return new Command(name)
    .description(description)
    .helpOption('-h, --help', 'print this usage and exit')
    .showHelpAfterError()
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));
}

/** Parses `argv` (process.argv by default) and returns the options. */
export function parse(program, argv = process.argv) {
  program.parse(argv);
  return program.opts();
}

/** A port: an integer from 0 to 65535 (0 lets the system pick a free one). */
export function portNumber(value) {
  const port = Number(value);
  if (value === '' || !Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('expected an integer from 0 to 65535.');
  return port;
}

/** A positive integer (a count of runs, a number of milliseconds). */
export function positiveInteger(value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer.');
  return n;
}
