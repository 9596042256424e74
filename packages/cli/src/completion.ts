// Shell completion. Each shell's script asks `cloudapi __complete <words...>` for the candidates of
// the last word, so the three shells share one answer from the command table.
import { UsageError } from './errors.js';
import type { CommandTable } from './table.js';

const GLOBAL = ['--profile', '--debug', '--help', '--version'];
const EXTRA = ['configure', 'completion'];

/** Candidates for the word being typed, given the words before it (after `cloudapi`). */
export function complete(table: CommandTable, words: string[]): string[] {
  const typed = words.at(-1) ?? '';
  const before = words.slice(0, -1).filter((word) => !word.startsWith('-'));
  // Commands whose words begin with those typed (ids typed after the words do not count).
  const matching = table.commands.filter((spec) => before.slice(0, spec.words.length).every((word, i) => spec.words[i] === word));
  const exactCommand = matching.find((spec) => spec.words.every((word, i) => before[i] === word));
  const previous = words.at(-2) ?? '';
  const choices = exactCommand && previous.startsWith('--') ? enumOf(exactCommand, previous.slice(2)) : undefined;
  let candidates: string[];
  if (choices) candidates = choices;
  else if (typed.startsWith('-')) {
    candidates = [...GLOBAL, ...(exactCommand ? flagsOf(exactCommand) : [])];
  } else if (before.length === 0) candidates = [...Object.keys(table.areas), ...EXTRA];
  else if (before[0] === 'completion' && before.length === 1) candidates = ['bash', 'zsh', 'fish'];
  else candidates = [...new Set(matching.filter((spec) => spec.words.length > before.length).map((spec) => spec.words[before.length]!))];
  return candidates.filter((candidate) => candidate.startsWith(typed)).sort();
}

/** The values a flag takes when the schema lists them (`--type` → master, slave). */
function enumOf(spec: CommandTable['commands'][number], flag: string): string[] | undefined {
  const found = [...spec.query, ...(spec.body?.fields ?? [])].find((field) => field.flag === flag);
  return found?.enum?.map(String);
}

function flagsOf(spec: CommandTable['commands'][number]): string[] {
  return [
    ...spec.query.map((q) => `--${q.flag}`),
    ...(spec.body?.fields ?? []).flatMap((f) => (f.type === 'boolean' && !f.array ? [`--${f.flag}`, `--no-${f.flag}`] : [`--${f.flag}`])),
    ...(spec.body ? ['--data'] : []), ...(spec.upload ? ['--upload-file'] : []), ...(spec.list ? ['--all'] : []), ...(spec.filter ? ['--filter'] : []), '--json', '--format',
  ];
}

const SCRIPTS: Record<string, string> = {
  bash: `# cloudapi completion for bash: eval "$(cloudapi completion bash)" (or save it in bash_completion.d)
_cloudapi_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(cloudapi __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _cloudapi_complete cloudapi
`,
  zsh: `#compdef cloudapi
# cloudapi completion for zsh: cloudapi completion zsh > "\${fpath[1]}/_cloudapi"
_cloudapi() {
  local -a candidates
  candidates=("\${(@f)$(cloudapi __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -- $candidates
}
if [ "$funcstack[1]" = "_cloudapi" ]; then _cloudapi "$@"; else compdef _cloudapi cloudapi; fi
`,
  fish: `# cloudapi completion for fish: cloudapi completion fish > ~/.config/fish/completions/cloudapi.fish
complete -c cloudapi -f -a '(cloudapi __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`,
};

export function completionScript(shell: string): string {
  const script = SCRIPTS[shell];
  if (!script) throw new UsageError([`completion: no script for "${shell}"; use bash, zsh or fish`]);
  return script;
}
