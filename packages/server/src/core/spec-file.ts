// The bundle file read and described once per process (spec.ts describes a document).
import { statSync } from 'node:fs';
import { defaultBundleFile, loadBundle } from '@cloudapi/spec/bundle';
import { describeBundle } from './spec.js';
import type { ApiSpec } from './spec.js';

// One description per bundle file (and version of it), shared by the servers of a process.
const described = new Map<string, ApiSpec>();

/** The bundle file read and described, reusing the description while the file is unchanged. */
export function describeBundleFile(file = defaultBundleFile()): ApiSpec {
  let key = file;
  try {
    const stat = statSync(file);
    key = `${file} ${stat.mtimeMs} ${stat.size}`;
  } catch { /* loadBundle reports it */ }
  let spec = described.get(key);
  if (!spec) {
    spec = describeBundle(loadBundle(file));
    described.set(key, spec);
  }
  return spec;
}
