// Types of @cloudapi/spec/filters, the X-Filter language shared by the server, the mock and the kit.
declare module '@cloudapi/spec/filters' {
  export type FieldKind = 'text' | 'integer' | 'number' | 'timestamp' | 'boolean' | 'tags';
  export interface FieldSpec { kind: FieldKind; nullable: boolean; enum?: string[] }
  export interface FilterSpec {
    operationId: string;
    fields: Record<string, FieldSpec>;
    orderable: string[];
    orderKinds: Record<string, FieldSpec>;
    path?: string;
    method?: string;
  }
  export type Operator = 'eq' | '+neq' | '+gt' | '+gte' | '+lt' | '+lte' | '+contains';
  export type Condition = { field: string; op: Operator; value: string | number | boolean | null };
  export type Where = { and: Where[] } | { or: Where[] } | Condition;
  export interface ParsedFilter { where: Where | null; orderBy: string | null; order: 'asc' | 'desc' | null }
  export const FILTER_HEADER: 'X-Filter';
  export const FILTER_LIMITS: { length: number; depth: number; items: number; conditions: number };
  export class FilterError extends Error { reason: string }
  export function encodeFilterHeader(filter: unknown): string;
  export function filterSpecs(document: unknown): Map<string, FilterSpec>;
  export function parseFilter(text: unknown, spec: FilterSpec): ParsedFilter;
  export function timestampMs(value: string): number;
  export function matchesFilter(item: unknown, where: Where | null, spec: FilterSpec): boolean;
  export function applyFilterInMemory<T>(items: T[], parsed: ParsedFilter, spec: FilterSpec): T[];
  export function compareItems(orderBy: string, order: 'asc' | 'desc' | null): (a: unknown, b: unknown) => number;
}
