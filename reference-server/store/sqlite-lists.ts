// Paged lists with ThingsBoard's PageLink semantics: `textSearch` is a case-insensitive substring of
// the list's text columns (DeviceRepository: ilike '%text%' on name or label), `sortProperty` one of
// the list's own properties (text without regard to case, nearer Postgres' locale order than
// SQLite's binary one), and LIMIT/OFFSET, so a page reads only its own rows whatever pageSize
// is. Statements are prepared on first use per combination of filters and sort, and kept: there are
// only as many combinations as the lists allow.
import type Database from 'better-sqlite3';
import type { ListQuery, Page } from './types.js';
import type { Row } from './sqlite-rows.js';

export interface ListSpec {
  /** FROM clause (one table). */
  from: string;
  select: string;
  /** Always applied, with named parameters taken from the filter. */
  where?: string;
  /** Columns searched by textSearch. */
  searchIn: string[];
  /** sortProperty (store/sort-properties.ts) -> SQL expression. */
  sorts: Record<string, string>;
  /** ORDER BY without a sortProperty. */
  defaultOrder: string;
  /** Optional filters: name -> condition using the parameter @name; applied when the value is set (a list as JSON text). */
  filters?: Record<string, string>;
}

export type List<T, F> = (query: ListQuery, filter?: F) => Page<T>;

/** Registers the search function the lists use (JavaScript lower-casing: Unicode, as Postgres ilike). */
export function registerSearch(db: Database.Database): void {
  db.function('contains_ci', { deterministic: true }, (text: unknown, needle: unknown) =>
    typeof text === 'string' && text.toLowerCase().includes(needle as string) ? 1 : 0);
}

export function createList<T, F extends object>(db: Database.Database, spec: ListSpec, from: (row: Row) => T): List<T, F> {
  const cache = new Map<string, { page: Database.Statement; count: Database.Statement }>();

  function statements(filterNames: string[], search: boolean, sort: string): { page: Database.Statement; count: Database.Statement } {
    const key = `${filterNames.join(',')}|${search}|${sort}`;
    let found = cache.get(key);
    if (found) return found;
    const conditions = [
      ...(spec.where ? [spec.where] : []),
      ...filterNames.map((name) => spec.filters![name]),
      ...(search ? [`(${spec.searchIn.map((c) => `contains_ci(${c}, @search)`).join(' OR ')})`] : []),
    ];
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
    found = {
      page: db.prepare(`SELECT ${spec.select} FROM ${spec.from}${where} ORDER BY ${sort} LIMIT @limit OFFSET @offset`),
      count: db.prepare(`SELECT count(*) AS n FROM ${spec.from}${where}`),
    };
    cache.set(key, found);
    return found;
  }

  return (query, filter) => {
    const params: Record<string, unknown> = {};
    const filterNames: string[] = [];
    for (const [name, value] of Object.entries(filter ?? {})) {
      if (value === undefined) continue;
      if (spec.filters?.[name] !== undefined) filterNames.push(name);
      params[name] = Array.isArray(value) ? JSON.stringify(value) : value;
    }
    filterNames.sort();
    const search = query.textSearch !== undefined && query.textSearch !== '';
    if (search) params.search = query.textSearch!.toLowerCase();
    const sort = query.sortProperty
      ? `${spec.sorts[query.sortProperty]} COLLATE NOCASE ${query.sortOrder ?? 'ASC'}, rowid`
      : spec.defaultOrder;
    const { page, count } = statements(filterNames, search, sort);
    const data = (page.all({ ...params, limit: query.pageSize, offset: query.page * query.pageSize }) as Row[]).map(from);
    return { data, totalElements: (count.get(params) as { n: number }).n };
  };
}
