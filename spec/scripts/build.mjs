// `npm run build` of the spec: the bundle (scripts/bundle.mjs) and the type declarations of lib/
// (../scripts/declarations.mjs) side by side. They read different files, and the spec's build is
// the first step of every other build (npm start's included): one after the other kept the
// second core idle for the length of the shorter one. Exits with the first failure's code.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const steps = [[here('./bundle.mjs'), ...process.argv.slice(2)], [here('../../scripts/declarations.mjs')]];
const codes = await Promise.all(steps.map((args) => new Promise((resolve) => {
  spawn(process.execPath, args, { stdio: 'inherit' })
    .on('error', (error) => { console.error(`✖ ${args[0]}: ${error.message}`); resolve(1); })
    .on('exit', (code, signal) => resolve(signal ? 1 : code ?? 1));
})));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
