// The command table is the bundle's: one command per operation, named from tags and operationIds,
// and dist/commands.json is exactly what the generator makes of the current bundle.
import { describe, expect, it } from 'vitest';
import { loadBundle } from '@cloudapi/spec/bundle';
import { buildTable } from '../scripts/command-table.mjs';
import { commandWords, splitOperationId } from '../scripts/naming.mjs';
import { loadTable } from '../src/table.js';

const bundle = loadBundle();

describe('the command table', () => {
  it('is what the generator makes of the bundle (never edited by hand)', () => {
    expect(loadTable()).toEqual(buildTable(bundle));
  });

  it('has one command per operation of the bundle, each with its own words', () => {
    const operationIds = Object.values(bundle.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId).filter(Boolean));
    const { commands } = loadTable();
    expect(commands.map((c) => c.operationId).sort()).toEqual(operationIds.sort());
    expect(new Set(commands.map((c) => c.words.join(' '))).size).toBe(commands.length);
  });

  it('names commands as the interface says', () => {
    const words = (id: string) => loadTable().commands.find((c) => c.operationId === id)?.words.join(' ');
    expect(words('createVolume')).toBe('volumes create');
    expect(words('listVolumes')).toBe('volumes list');
    expect(words('getVolume')).toBe('volumes view');
    expect(words('deleteVolume')).toBe('volumes delete');
    expect(words('bootComputeInstance')).toBe('compute instances boot');
    expect(words('shutDownComputeInstance')).toBe('compute instances shut-down');
    expect(words('listAccessKeys')).toBe('object-storage access-keys list');
    expect(words('cancelObjectStorage')).toBe('object-storage cancel');
    expect(splitOperationId('getManagedContact', 'Managed')).toEqual({ verb: 'get', noun: ['Contact'] });
  });

  it('refuses two operations that would have the same command', () => {
    expect(() => commandWords([{ operationId: 'listVolumes', tag: 'Volumes' }, { operationId: 'listVolume', tag: 'Volumes' }])).toThrow(/would both be "cloudapi volumes list"/);
  });

  it('takes path parameters as positionals, query parameters and body fields as flags, nested as dotted flags', () => {
    const boot = loadTable().commands.find((c) => c.operationId === 'bootComputeInstance')!;
    expect(boot.positionals.map((p) => p.arg)).toEqual(['compute-id']);
    expect(boot.body?.fields.map((f) => f.flag)).toEqual(['config-id']);
    const update = loadTable().commands.find((c) => c.operationId === 'updateComputeInstance')!;
    expect(update.body?.fields.map((f) => f.flag)).toEqual(expect.arrayContaining(['backups.schedule.day', 'alerts.cpu', 'label', 'tags']));
    expect(update.body?.fields.find((f) => f.flag === 'tags')).toMatchObject({ array: true, type: 'string' });
    // The fields X-Filter matches, from the items' `x-filterable`.
    expect(loadTable().commands.find((c) => c.operationId === 'listVolumes')).toMatchObject({ list: true, filter: true, filterable: ['label', 'tags'] });
    // A readOnly field is not a flag.
    expect(loadTable().commands.find((c) => c.operationId === 'createVolume')!.body?.fields.map((f) => f.flag)).not.toContain('status');
  });
});
