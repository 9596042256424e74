// Checks the docs publishing workflow: GitHub's own parser (@actions/workflow-parser) must accept
// it, and what it runs must exist here: every `npm run X` a root script, the folder it uploads the
// one `npm run docs` writes.
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parse } from 'yaml';

const NPM_COMMANDS = new Set(['install', 'ci', 'test', 'start', 'run', 'exec']);

/** Problems with `content` (a workflow file), given the root package.json; [] when none. */
export async function workflowProblems(content, { packageJson, siteDir, name = 'docs.yml' }) {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const problems = parsed.context.errors.getErrors().map((e) => e.message);
  if (problems.length || !parsed.value) return problems;
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  problems.push(...parsed.context.errors.getErrors().map((e) => e.message));
  if (problems.length) return problems;

  const raw = parse(content);
  const scripts = packageJson.scripts ?? {};
  if (!template.events?.push?.branches?.includes('main')) problems.push('it must run on pushes to main');
  for (const permission of ['pages', 'id-token']) {
    if (raw.permissions?.[permission] !== 'write') problems.push(`it needs permissions.${permission}: write to deploy to GitHub Pages`);
  }
  const steps = template.jobs.flatMap((job) => (job.steps ?? []).map((step) => ({ job: job.id, ...step })));
  for (const step of steps.filter((s) => s.run)) {
    for (const line of String(step.run).split('\n').map((l) => l.trim()).filter(Boolean)) {
      const npm = /^npm\s+(\S+)(?:\s+(\S+))?/.exec(line);
      if (!npm) continue;
      const [, command, script] = npm;
      if (!NPM_COMMANDS.has(command)) problems.push(`job ${step.job}: "${line}" is not an npm command this repository uses`);
      if (command === 'run' && !scripts[script]) problems.push(`job ${step.job}: "${line}" names no script of package.json (${Object.keys(scripts).join(', ')})`);
      if ((command === 'test' || command === 'start') && !scripts[command]) problems.push(`job ${step.job}: "${line}" has no ${command} script`);
    }
  }
  if (!steps.some((s) => /^npm run docs\b/m.test(String(s.run ?? '')))) problems.push('no step runs `npm run docs`');
  for (const step of steps.filter((s) => s.uses)) {
    if (!/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@(v\d+(\.\d+)*|[0-9a-f]{40})$/.test(step.uses)) problems.push(`job ${step.job}: pin "${step.uses}" to a major version or a commit`);
  }
  const uploads = Object.values(raw.jobs ?? {}).flatMap((job) => job.steps ?? []).filter((s) => String(s.uses ?? '').startsWith('actions/upload-pages-artifact@'));
  if (uploads.length !== 1) problems.push('exactly one step must upload the site with actions/upload-pages-artifact');
  else if (uploads[0].with?.path !== siteDir) problems.push(`the uploaded folder is "${uploads[0].with?.path}", but \`npm run docs\` writes ${siteDir}`);
  if (!steps.some((s) => String(s.uses ?? '').startsWith('actions/deploy-pages@'))) problems.push('no step deploys with actions/deploy-pages');
  return problems;
}
