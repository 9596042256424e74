// The rules of a config's settings that the schemas cannot hold, because they depend on what the
// config already is: a partial update or rebuild that leaves `protocol` out keeps the config's
// protocol, and the certificate rules and cookie stickiness follow the protocol that results.
import { badRequest } from '../../core/errors.js';
import { certificateFacts } from './store.js';
import type { ConfigSettings } from './store.js';

/** Settings as a request sends them; null on `ssl_cert`/`ssl_key` means "no certificate". */
export type SettingsInput = { [K in keyof ConfigSettings]?: K extends 'check_passive' ? boolean | null : ConfigSettings[K] | null };

/**
 * The service defaults of a new config (the requirements show only `proxy_protocol` `none`; the
 * spec adds `protocol` `http`; the others are the reference API's).
 */
export const CONFIG_DEFAULTS: ConfigSettings = {
  port: 80,
  protocol: 'http',
  algorithm: 'roundrobin',
  stickiness: 'none',
  check: 'none',
  check_interval: 31,
  check_timeout: 30,
  check_attempts: 3,
  check_path: '',
  check_body: '',
  check_passive: 1,
  proxy_protocol: 'none',
  cipher_suite: 'recommended',
  ssl_cert: null,
  ssl_key: null,
  ssl_commonname: '',
  ssl_fingerprint: '',
};

const PLAIN_FIELDS = ['port', 'protocol', 'algorithm', 'stickiness', 'check', 'check_interval', 'check_timeout', 'check_attempts', 'check_path', 'check_body', 'proxy_protocol', 'cipher_suite'] as const;

/**
 * The settings a config has after `input` is applied to `current` (a new config: the defaults).
 * `at` prefixes the field names of errors (`configs.1.`). Throws 400 naming the field for a
 * certificate on a protocol that takes none, `https` without one, and cookie stickiness on `tcp`.
 */
export function applySettings(current: ConfigSettings | undefined, input: SettingsInput, at = ''): ConfigSettings {
  const next: ConfigSettings = { ...(current ?? CONFIG_DEFAULTS) };
  for (const field of PLAIN_FIELDS) {
    const value = input[field];
    if (value !== undefined && value !== null) (next as unknown as Record<string, unknown>)[field] = value;
  }
  if (input.check_passive !== undefined && input.check_passive !== null) next.check_passive = input.check_passive ? 1 : 0;

  const certSent = typeof input.ssl_cert === 'string';
  if (next.protocol === 'https') {
    if (certSent) Object.assign(next, { ssl_cert: input.ssl_cert, ssl_key: input.ssl_key }, certificateFacts(input.ssl_cert!));
    else if (input.ssl_cert === null || input.ssl_key === null || next.ssl_cert === null) {
      throw badRequest('An https config requires ssl_cert and ssl_key (a PEM certificate and its private key)', `${at}ssl_cert`);
    }
  } else {
    if (certSent) throw badRequest(`A ${next.protocol} config takes no ssl_cert or ssl_key; only https does`, `${at}ssl_cert`);
    // Switching to http or tcp removes the certificate and key.
    Object.assign(next, { ssl_cert: null, ssl_key: null }, certificateFacts(null));
  }
  if (next.protocol === 'tcp' && next.stickiness === 'http_cookie') {
    throw badRequest('http_cookie stickiness needs the http or https protocol; this config is tcp', `${at}stickiness`);
  }
  return next;
}
