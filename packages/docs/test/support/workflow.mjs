// Checks the repository's GitHub workflows. Every workflow: GitHub's own parser
// (@actions/workflow-parser) accepts it, every `npm run X` it runs is a root script, every local
// program it runs (`./.ci/run`) exists, and actions are pinned. The docs workflow, in addition:
// it publishes the folder `npm run docs` writes to GitHub Pages on pushes to main.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parse } from 'yaml';

const NPM_COMMANDS = new Set(['install', 'ci', 'test', 'start', 'run', 'exec']);

/** The parsed workflow, its steps and the problems of its form; `template` is null when unparsable. */
async function parseFile(content, name) {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const problems = parsed.context.errors.getErrors().map((e) => e.message);
  if (problems.length || !parsed.value) return { problems, template: null };
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  problems.push(...parsed.context.errors.getErrors().map((e) => e.message));
  const steps = (template.jobs ?? []).flatMap((job) => (job.steps ?? []).map((step) => ({ job: job.id, ...step })));
  return { problems, template, steps, raw: parse(content) };
}

/** Problems of any workflow file (`content`), given the root package.json and folder; [] when none. */
export async function workflowProblems(content, { packageJson, rootDir, name }) {
  const { problems, template, steps } = await parseFile(content, name);
  if (!template || problems.length) return problems;
  const scripts = packageJson.scripts ?? {};
  for (const step of steps.filter((s) => s.run)) {
    for (const line of String(step.run).split('\n').map((l) => l.trim()).filter(Boolean)) {
      const npm = /^npm\s+(\S+)(?:\s+(\S+))?/.exec(line);
      if (npm) {
        const [, command, script] = npm;
        if (!NPM_COMMANDS.has(command)) problems.push(`job ${step.job}: "${line}" is not an npm command this repository uses`);
        if (command === 'run' && !scripts[script]) problems.push(`job ${step.job}: "${line}" names no script of package.json (${Object.keys(scripts).join(', ')})`);
        if ((command === 'test' || command === 'start') && !scripts[command]) problems.push(`job ${step.job}: "${line}" has no ${command} script`);
      }
      const local = /^(\.\/\S+)/.exec(line);
      if (local) {
        try { accessSync(path.join(rootDir, local[1]), constants.X_OK); } catch { problems.push(`job ${step.job}: "${local[1]}" is not an executable file of the repository`); }
      }
    }
  }
  for (const step of steps.filter((s) => s.uses)) {
    if (!/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@(v\d+(\.\d+)*|[0-9a-f]{40})$/.test(step.uses)) problems.push(`job ${step.job}: pin "${step.uses}" to a major version or a commit`);
  }
  return problems;
}

/** The events a workflow runs on, as GitHub reads them. */
export async function workflowEvents(content, name) {
  const { template } = await parseFile(content, name);
  return template?.events ?? {};
}

/** Problems of the docs publishing workflow: those of any workflow, and what publishing needs. */
export async function docsWorkflowProblems(content, { packageJson, rootDir, siteDir, name = 'docs.yml' }) {
  const problems = await workflowProblems(content, { packageJson, rootDir, name });
  const { template, steps, raw } = await parseFile(content, name);
  if (!template || problems.length) return problems;
  if (!template.events?.push?.branches?.includes('main')) problems.push('it must run on pushes to main');
  for (const permission of ['pages', 'id-token']) {
    if (raw.permissions?.[permission] !== 'write') problems.push(`it needs permissions.${permission}: write to deploy to GitHub Pages`);
  }
  if (!steps.some((s) => /^npm run docs\b/m.test(String(s.run ?? '')))) problems.push('no step runs `npm run docs`');
  const uploads = Object.values(raw.jobs ?? {}).flatMap((job) => job.steps ?? []).filter((s) => String(s.uses ?? '').startsWith('actions/upload-pages-artifact@'));
  if (uploads.length !== 1) problems.push('exactly one step must upload the site with actions/upload-pages-artifact');
  else if (uploads[0].with?.path !== siteDir) problems.push(`the uploaded folder is "${uploads[0].with?.path}", but \`npm run docs\` writes ${siteDir}`);
  if (!steps.some((s) => String(s.uses ?? '').startsWith('actions/deploy-pages@'))) problems.push('no step deploys with actions/deploy-pages');
  return problems;
}
