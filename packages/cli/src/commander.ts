// commander, loaded with require(): it is CommonJS, and importing it from an ES module makes Node
// scan its source for named exports first, a cost paid on every start (bench: npm run bench).
import { createRequire } from 'node:module';

const commander = createRequire(import.meta.url)('commander') as typeof import('commander');
export const { Command, Option, CommanderError } = commander;
export type Command = import('commander').Command;
export type Option = import('commander').Option;
