// The commander tree of the command table: `cloudapi <area> [group] <action> [ids] [--flags]`, one
// command per operation, its help from the spec's summary, description and example. Only the
// area named on the command line gets its commands' options, so `--help` stays fast.
import { Command, Option } from './commander.js';
import type { Io } from './io.js';
import type { CommandSpec, CommandTable } from './table.js';

/** What parsing chose: the operation and what was given for it. */
export interface Selected { spec: CommandSpec; command: Command; positionals: string[]; options: Map<string, Option> }

const collect = (value: string, previous: unknown) => [...(Array.isArray(previous) ? previous : []), value];
const choices = (values?: unknown[]) => (values ? ` (one of: ${values.map(String).join(', ')})` : '');

/** The flags of one operation: query parameters, then body fields; the Map is keyed by flag name. */
function addOperationOptions(command: Command, spec: CommandSpec): Map<string, Option> {
  const options = new Map<string, Option>();
  const add = (flag: string, option: Option) => { command.addOption(option); options.set(flag, option); };
  for (const q of spec.query) {
    const option = new Option(`--${q.flag} <${q.type}>`, `${q.description}${choices(q.enum)}${q.required ? ' (required)' : ''}${q.array ? ' (repeat for several)' : ''}`);
    add(q.flag, q.array ? option.argParser(collect) : option);
  }
  for (const field of spec.body?.fields ?? []) {
    const text = `${field.description}${choices(field.enum)}${field.required ? ' (required)' : ''}`;
    if (field.type === 'boolean' && !field.array) {
      add(field.flag, new Option(`--${field.flag}`, text));
      command.addOption(new Option(`--no-${field.flag}`, `send ${field.path.join('.')} as false`));
      continue;
    }
    const value = field.file ? 'file' : field.type;
    const option = new Option(`--${field.flag} <${value}>`, `${text}${field.array ? ' (repeat for several)' : ''}${field.nullable && !field.file ? ' (null for none)' : ''}`);
    add(field.flag, field.array ? option.argParser(collect) : option);
  }
  if (spec.body) command.addOption(new Option('--data <source>', 'the whole body as JSON: @file.json, - for standard input, or the JSON itself; flags add to it'));
  if (spec.list) command.addOption(new Option('--all', 'every page, not only the first'));
  if (spec.upload) command.addOption(new Option('--upload-file <path>', 'then send this file (application/octet-stream) with a PUT to the upload_to URL of the answer'));
  if (spec.filter) {
    const fields = spec.filterable.length ? `on ${spec.filterable.join(', ')}` : 'on the filterable fields';
    command.addOption(new Option('--filter <json>', `the X-Filter header, a JSON object ${fields}, with +and, +or, +gt, +order_by… ('{"+order_by": "id", "+order": "desc"}')`));
  }
  command.addOption(new Option('--json', 'print the answer as JSON'));
  command.addOption(new Option('--format <fields>', `the columns to print, comma-separated${spec.columns.length ? ` (default ${spec.columns.join(',')})` : ''}`));
  return options;
}

function helpText(spec: CommandSpec): string {
  return `${spec.summary}.${spec.description ? `\n\n${spec.description}` : ''}\n\n(${spec.method} ${spec.path}, operation ${spec.operationId})`;
}

/**
 * The program. `area` (the first word typed) chooses the area whose commands are built in full;
 * the others are listed by name only. `onSelect` receives the operation chosen.
 */
export function buildProgram(table: CommandTable, io: Io, area: string | undefined, onSelect: (selected: Selected) => void): Command {
  const program = new Command('cloudapi')
    .description(`The command line of the Cloud Account Management API ${table.version}: cloudapi <area> <action> [ids] [--flags].\n\nCLOUDAPI_TOKEN and CLOUDAPI_BASE_URL (or a profile written by cloudapi configure) say where to send requests.\nExit codes: 0 done, 1 the API refused, 2 a usage error.`)
    .version(table.version)
    .option('--profile <name>', 'the profile of the config file to use (see cloudapi configure)')
    .option('--debug', 'print each request and answer on standard error (the token and write-only fields hidden)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (text, write) => write(text) })
    .showSuggestionAfterError(true)
    .exitOverride();

  const byArea = new Map<string, CommandSpec[]>();
  for (const spec of table.commands) {
    const list = byArea.get(spec.words[0]!) ?? [];
    list.push(spec);
    byArea.set(spec.words[0]!, list);
  }
  for (const [name, description] of Object.entries(table.areas)) {
    const areaCommand = program.command(name).description(description).helpCommand(false);
    if (area !== name) continue;
    const groups = new Map<string, Command>();
    for (const spec of byArea.get(name) ?? []) {
      let parent = areaCommand;
      for (const word of spec.words.slice(1, -1)) {
        let group = groups.get(word);
        if (!group) {
          const actions = (byArea.get(name) ?? []).filter((other) => other.words.length > 2 && other.words[1] === word).map((other) => other.words.at(-1));
          group = parent.command(word).description(`${actions.join(', ')}`).helpCommand(false);
          groups.set(word, group);
        }
        parent = group;
      }
      const command = parent.command(spec.words.at(-1)!).summary(spec.summary).description(helpText(spec));
      for (const p of spec.positionals) command.argument(`<${p.arg}>`, p.description);
      const options = addOperationOptions(command, spec);
      command.addHelpText('after', `\nExample:\n  ${spec.example}\n`);
      command.action((...args: unknown[]) => {
        onSelect({ spec, command, positionals: args.slice(0, spec.positionals.length) as string[], options });
      });
    }
  }
  return program;
}
