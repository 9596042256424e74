// `cloudapi configure`: writes a profile (token and base URL) to the config file, from flags or,
// at a terminal, from prompts.
import { configPath, DEFAULT_PROFILE, readConfig, writeProfile } from './config.js';
import { EXIT, UsageError } from './errors.js';
import type { Io } from './io.js';

export interface ConfigureOptions { token?: string; baseUrl?: string; profile?: string }

export async function configure(options: ConfigureOptions, io: Io, specBaseUrl: string): Promise<number> {
  const file = configPath(io.env);
  const name = options.profile ?? DEFAULT_PROFILE;
  const current = readConfig(file).profiles[name] ?? {};
  let { token, baseUrl } = options;
  if (token === undefined && baseUrl === undefined) {
    if (!io.interactive) throw new UsageError(['configure: give --token and/or --base-url (standard input is not a terminal to ask on)'], 'configure');
    token = (await io.prompt(`Token${current.token ? ' (Enter keeps the current one)' : ''}: `)) || current.token;
    baseUrl = (await io.prompt(`Base URL [${current.base_url ?? specBaseUrl}]: `)) || current.base_url || specBaseUrl;
  }
  if (baseUrl !== undefined && !/^https?:\/\/\S+$/.test(baseUrl)) throw new UsageError([`--base-url: must be an http or https URL such as ${specBaseUrl}`], 'configure');
  writeProfile(file, name, { ...(token !== undefined ? { token } : {}), ...(baseUrl !== undefined ? { base_url: baseUrl } : {}) });
  io.stdout(`profile "${name}" written to ${file}\n`);
  return EXIT.done;
}
