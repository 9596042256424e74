// The workspaces of the root package.json, each as { dir, file, manifest }: the one list that
// scripts and the release checks walk.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function workspaces(root) {
  const { workspaces: patterns } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dirs = patterns.flatMap((pattern) => pattern.endsWith('/*')
    ? readdirSync(path.join(root, pattern.slice(0, -2))).sort().map((name) => `${pattern.slice(0, -2)}/${name}`)
    : [pattern]);
  return dirs
    .filter((dir) => existsSync(path.join(root, dir, 'package.json')))
    .map((dir) => {
      const file = path.join(root, dir, 'package.json');
      return { dir, file, manifest: JSON.parse(readFileSync(file, 'utf8')) };
    });
}
