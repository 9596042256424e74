#!/usr/bin/env node
// `npm run mock`: serves the API's mock with Prism on 127.0.0.1:4010 until Ctrl-C.
// PORT and HOST override the address; --dynamic generates responses from the schemas (--seed N
// makes them repeatable).
import { startMock } from '../src/index.mjs';

const port = process.env.PORT ? Number(process.env.PORT) : 4010;
const host = process.env.HOST || '127.0.0.1';
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer from 0 to 65535, got "${process.env.PORT}".`);
  process.exit(2);
}
const dynamic = process.argv.includes('--dynamic');
const seedAt = process.argv.indexOf('--seed');
const seed = seedAt > 0 ? process.argv[seedAt + 1] : undefined;
if (seedAt > 0 && (seed === undefined || seed.startsWith('--'))) {
  console.error('--seed needs a value, e.g. --seed 42.');
  process.exit(2);
}

let mock;
try {
  mock = await startMock({ port, host, dynamic, seed });
} catch (error) {
  console.error(`✖ the mock did not start: ${error.message}`);
  process.exit(1);
}
console.log(`✔ mock of the API (${dynamic ? 'dynamic' : 'examples'}) listening at ${mock.baseUrl}`);
console.log(`  try: curl -s ${mock.baseUrl}/regions`);
console.log('  Ctrl-C stops it.');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await mock.stop();
    process.exit(0);
  });
}
