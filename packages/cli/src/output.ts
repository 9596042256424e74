// What a command prints on success: a table of the resource's main fields (the command table's
// columns, or those of `--format`) for people, or the answer's JSON with `--json` for scripts.
import { escapeControls } from './terminal.js';
import { getPath } from './values.js';

export interface OutputOptions { json?: boolean; format?: string }

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(text).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** One line per row; control characters escaped here (not only on the way out) so columns align. */
const cell = (value: unknown): string => escapeControls(text(value).replace(/\s+/g, ' '));

/** Rows as aligned columns under an upper-case header. */
export function renderTable(rows: unknown[], columns: string[]): string {
  const grid = [columns.map((c) => c.toUpperCase()), ...rows.map((row) => columns.map((c) => cell(getPath(row, c))))];
  const widths = columns.map((_, i) => Math.max(...grid.map((line) => line[i]!.length)));
  return grid.map((line) => line.map((text, i) => (i === line.length - 1 ? text : text.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}

/** The text printed for an answer: `rows` are a list's items, else undefined for one object. */
export function render(answer: unknown, rows: unknown[] | undefined, defaultColumns: string[], options: OutputOptions): string {
  if (options.json) return `${JSON.stringify(rows ?? answer, null, 2)}\n`;
  const columns = options.format ? options.format.split(',').map((c) => c.trim()).filter(Boolean) : defaultColumns;
  if (rows) return renderTable(rows, columns.length ? columns : ['id']);
  if (answer && typeof answer === 'object' && !Object.keys(answer).length) return '';
  if (!columns.length) return `${JSON.stringify(answer, null, 2)}\n`;
  return renderTable([answer], columns);
}
