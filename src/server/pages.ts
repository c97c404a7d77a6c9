// The list pages of Responses and Conversations: `after`, `limit` (1–100, default 20), `order`
// (asc|desc, default desc) in the query; `{object:"list", data, first_id, last_id, has_more}` out.
import * as v from "valibot";
import type { Page, PageQuery } from "../db/index.ts";
import { HttpError } from "./errors.ts";

const Query = v.object({
  after: v.optional(v.pipe(v.string(), v.minLength(1))),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, "limit must be a whole number from 1 to 100"),
      v.transform(Number),
      v.minValue(1, "limit must be at least 1"),
      v.maxValue(100, "limit must be at most 100"),
    ),
  ),
  order: v.optional(v.picklist(["asc", "desc"], "order must be asc or desc")),
});

export const PageParams = {
  read(url: URL): PageQuery {
    const raw: Record<string, string> = {};
    for (const k of ["after", "limit", "order"]) {
      const value = url.searchParams.get(k);
      // `after=` (empty), as OpenUI's cloud storage sends on a first page, is no cursor.
      if (value !== null && !(k === "after" && value === "")) raw[k] = value;
    }
    const r = v.safeParse(Query, raw);
    if (!r.success) throw new HttpError(400, r.issues[0].message, { param: String(r.issues[0].path?.[0]?.key ?? "") });
    return { after: r.output.after, limit: r.output.limit ?? 20, order: r.output.order ?? "desc" };
  },
};

/** The list body; null (an `after` that names nothing here) is a 400. */
export function listPage<T extends { id: string }>(page: Page<T> | null, after: string | undefined, map: (row: T) => unknown = (r) => r): Response {
  if (!page) throw new HttpError(400, `after: no item ${after} in this list`, { param: "after", code: "invalid_cursor" });
  return Response.json({
    object: "list",
    data: page.rows.map(map),
    first_id: page.rows[0]?.id ?? null,
    last_id: page.rows[page.rows.length - 1]?.id ?? null,
    has_more: page.hasMore,
  });
}
