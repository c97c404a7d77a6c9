import { sql, type SelectQueryBuilder } from "kysely";

// Cursor paging over a table ordered by its integer `seq`: `after` names an id, the page holds up
// to `limit` rows past it in the chosen order, and one extra row read tells `has_more`. Exact
// across pages: rows are never skipped or repeated, in either order, however many there are.
export interface PageQuery {
  after?: string;
  limit: number;
  order: "asc" | "desc";
}

export interface Page<T> {
  rows: T[];
  hasMore: boolean;
}

export function cutPage<T>(rows: T[], limit: number): Page<T> {
  return rows.length > limit ? { rows: rows.slice(0, limit), hasMore: true } : { rows, hasMore: false };
}

/**
 * One page of `query` (rows carrying their `seq`) in `q.order`, past the row `q.after` names;
 * `seqOf` finds that row's `seq` among the rows the caller may see. Null when it names none.
 */
export async function readPage<R extends { seq: number }>(
  query: SelectQueryBuilder<any, any, R>,
  q: PageQuery,
  seqOf: (id: string) => Promise<{ seq: number } | undefined>,
): Promise<Page<R> | null> {
  if (q.after) {
    const at = await seqOf(q.after);
    if (!at) return null;
    query = query.where(sql.ref("seq"), q.order === "asc" ? ">" : "<", at.seq);
  }
  return cutPage(
    await query
      .orderBy(sql.ref("seq"), q.order)
      .limit(q.limit + 1)
      .execute(),
    q.limit,
  );
}
