// `cloudapi configure`: writes a profile (token and base URL) to the config file, from flags, from
// prompts at a terminal (the token typed without being shown), or with the token piped in on
// standard input. The token is never printed.
import { configPath, DEFAULT_PROFILE, readConfig, writeProfile } from './config.js';
import { EXIT, UsageError } from './errors.js';
import type { Io } from './io.js';

export interface ConfigureOptions { token?: string; baseUrl?: string; profile?: string }

/** `--token -`: the token comes from standard input (typed unseen at a terminal). */
export const FROM_STDIN = '-';

/** The token from standard input: its first line, typed unseen at a terminal or piped in. */
async function tokenFromStdin(io: Io, question: string): Promise<string> {
  if (io.interactive) return io.prompt(question, { secret: true });
  const line = (await io.readStdin()).split(/\r?\n/)[0]!.trim();
  if (!line) throw new UsageError(['configure: no token on standard input (pipe it in: cloudapi configure < token-file, or give --base-url alone)'], 'configure');
  return line;
}

export async function configure(options: ConfigureOptions, io: Io, specBaseUrl: string): Promise<number> {
  const file = configPath(io.env);
  const name = options.profile ?? DEFAULT_PROFILE;
  const current = readConfig(file).profiles[name] ?? {};
  let { token, baseUrl } = options;
  const tokenQuestion = `Token (not shown as you type)${current.token ? ', Enter keeps the current one' : ''}: `;
  if (token === FROM_STDIN) token = await tokenFromStdin(io, tokenQuestion);
  if (token === undefined && baseUrl === undefined) {
    // Nothing given: ask at a terminal; otherwise the token is what standard input holds.
    token = await tokenFromStdin(io, tokenQuestion);
    if (io.interactive) baseUrl = (await io.prompt(`Base URL [${current.base_url ?? specBaseUrl}]: `)) || current.base_url || specBaseUrl;
  }
  if (token === '') token = current.token;
  if (baseUrl !== undefined && !/^https?:\/\/\S+$/.test(baseUrl)) throw new UsageError([`--base-url: must be an http or https URL such as ${specBaseUrl}`], 'configure');
  writeProfile(file, name, { ...(token !== undefined ? { token } : {}), ...(baseUrl !== undefined ? { base_url: baseUrl } : {}) });
  io.stdout(`profile "${name}" written to ${file}\n`);
  return EXIT.done;
}
