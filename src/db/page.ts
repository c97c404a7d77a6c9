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
