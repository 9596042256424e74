#!/usr/bin/env node
// How far a reader travels following runContract's options through the kit. From runContract,
// each function of the kit that is handed the options or what holds them (the settings, the plan,
// the ledger; before them the run's state) is entered where the code names it (a call, or a
// phase named in a list), in source order, each function once; after it the reader is back in
// the caller. Consecutive steps in one file are one stay; a stay in a file already left is a
// return. `node scripts/options-walk.mjs [--trace]`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const src = path.join(root, 'src');
const program = ts.createProgram([path.join(src, 'index.ts')], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, skipLibCheck: true, noEmit: true });
const checker = program.getTypeChecker();
// The types that carry the options (before and after the plan and the ledger were split).
const CARRIERS = /^(ContractOptions|RunState|Plan|Basis|Ledger|Settings)$/;

const carries = (type) => [type, ...(type.isUnion() || type.isIntersection() ? type.types : [])]
  .some((t) => CARRIERS.test((t.aliasSymbol ?? t.getSymbol())?.getName() ?? ''));

/** The function a name refers to, when it is one of the kit's and is handed a carrier (a parameter, or `this` of a carrier class). */
function functionNamed(identifier) {
  let symbol = checker.getSymbolAtLocation(identifier);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  if (!declaration || !declaration.getSourceFile().fileName.startsWith(src)) return undefined;
  let fn = ts.isVariableDeclaration(declaration) ? declaration.initializer : declaration;
  if (fn && ts.isClassDeclaration(fn)) fn = fn.members.find((m) => ts.isConstructorDeclaration(m));
  if (!fn || !ts.isFunctionLike(fn) || !fn.body) return undefined;
  const signature = checker.getSignatureFromDeclaration(fn);
  const params = signature?.getParameters().map((p) => checker.getTypeOfSymbolAtLocation(p, fn)) ?? [];
  const inCarrierClass = ts.isClassDeclaration(fn.parent) && CARRIERS.test(fn.parent.name?.text ?? '');
  return params.some(carries) || inCarrierClass ? fn : undefined;
}

const trace = [];
const visited = new Set();
function enter(fn) {
  visited.add(fn);
  const file = path.relative(src, fn.getSourceFile().fileName);
  trace.push(file);
  const names = [];
  const collect = (node) => {
    if (ts.isIdentifier(node)) names.push(node);
    ts.forEachChild(node, collect);
  };
  ts.forEachChild(fn.body, collect);
  for (const name of names) {
    const target = functionNamed(name);
    if (!target || visited.has(target)) continue;
    enter(target);
    trace.push(file);
  }
}

const run = program.getSourceFile(path.join(src, 'run.ts'));
enter(run.statements.find((s) => ts.isFunctionDeclaration(s) && s.name?.text === 'runContract'));
const stays = trace.filter((file, i) => file !== trace[i - 1]);
const files = new Set(stays);
console.log(`${stays.length} stays in ${files.size} files, ${stays.length - files.size} returns to a file already left`);
if (process.argv.includes('--trace')) console.log(stays.join('\n'));
