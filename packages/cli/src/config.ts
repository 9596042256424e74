// The config file: named profiles of a token and a base URL, in the XDG config folder
// ($XDG_CONFIG_HOME/cloudapi/config.json, else ~/.config/cloudapi/config.json), written with
// mode 0600 because it holds tokens.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from './errors.js';

export interface Profile { token?: string; base_url?: string }
export interface ConfigFile { profiles: Record<string, Profile> }
export const DEFAULT_PROFILE = 'default';

export function configPath(env: Record<string, string | undefined>): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'cloudapi', 'config.json');
}

export function readConfig(file: string): ConfigFile {
  if (!existsSync(file)) return { profiles: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConfigFile>;
    return { profiles: parsed.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {} };
  } catch (error) {
    throw new UsageError([`${file}: not a valid config file (${(error as Error).message}); fix it or run cloudapi configure again after removing it`]);
  }
}

export function writeProfile(file: string, name: string, profile: Profile): void {
  const config = readConfig(file);
  config.profiles[name] = { ...config.profiles[name], ...profile };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // The mode of writeFileSync applies only to a new file.
  chmodSync(file, 0o600);
}

export interface Connection { baseUrl: string; token: string | undefined; profile: string }

/**
 * Where to send requests and with which token. A profile named with `--profile` wins; otherwise
 * CLOUDAPI_TOKEN and CLOUDAPI_BASE_URL win over the default profile, and the spec's server URL is
 * the last resort.
 */
export function resolveConnection(env: Record<string, string | undefined>, explicitProfile: string | undefined, specBaseUrl: string): Connection {
  const name = explicitProfile ?? env.CLOUDAPI_PROFILE ?? DEFAULT_PROFILE;
  const profiles = readConfig(configPath(env)).profiles;
  const profile = profiles[name];
  if ((explicitProfile || env.CLOUDAPI_PROFILE) && !profile) {
    throw new UsageError([`profile "${name}" is not in ${configPath(env)}: run cloudapi configure --profile ${name}`]);
  }
  const fromEnv = { token: env.CLOUDAPI_TOKEN || undefined, base_url: env.CLOUDAPI_BASE_URL || undefined };
  const chosen = explicitProfile ? { ...fromEnv, ...stripEmpty(profile) } : { ...stripEmpty(profile), ...stripEmpty(fromEnv) };
  return { baseUrl: chosen.base_url ?? specBaseUrl, token: chosen.token, profile: name };
}

const stripEmpty = (profile: Profile | undefined): Profile => Object.fromEntries(Object.entries(profile ?? {}).filter(([, value]) => value));
