// Types of @cloudapi/spec/filters (spec/lib/filters.mjs), the X-Filter language the kit checks.
declare module '@cloudapi/spec/filters' {
  export type FieldKind = 'text' | 'integer' | 'number' | 'timestamp' | 'boolean' | 'tags';
  export interface FieldSpec { kind: FieldKind; nullable: boolean; enum?: string[] }
  export interface FilterSpec { operationId: string; fields: Record<string, FieldSpec>; orderable: string[]; orderKinds: Record<string, FieldSpec> }
  export type Where = { and: Where[] } | { or: Where[] } | { field: string; op: string; value: unknown };
  export interface ParsedFilter { where: Where | null; orderBy: string | null; order: 'asc' | 'desc' | null }
  export const FILTER_HEADER: 'X-Filter';
  export function filterSpecs(document: unknown): Map<string, FilterSpec>;
  export function parseFilter(text: unknown, spec: FilterSpec): ParsedFilter;
  export function encodeFilterHeader(filter: unknown): string;
  export function matchesFilter(item: unknown, where: Where | null, spec: FilterSpec): boolean;
  export function compareItems(orderBy: string, order: 'asc' | 'desc' | null): (a: unknown, b: unknown) => number;
  export function applyFilterInMemory<T>(items: T[], parsed: ParsedFilter, spec: FilterSpec): T[];
  export function fieldValue(item: unknown, field: string): unknown;
}
