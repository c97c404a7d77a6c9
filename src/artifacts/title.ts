// An artifact's name: the title its root gives (SlideShow("Title", …), ReportView("Title", …)),
// following a reference to a string statement. Null when the program does not say.
import type { Expr } from "../lang/types.ts";
import { readProgram } from "./merge.ts";

export function programTitle(program: string): string | null {
  const stmts = readProgram(program);
  const root = stmts.get("root");
  if (!root || root.expr.k !== "call") return null;
  let first: Expr | undefined = root.expr.args[0];
  if (first?.k === "ref") first = stmts.get(first.name)?.expr;
  return first?.k === "str" && first.v.trim() !== "" ? first.v.trim().slice(0, 200) : null;
}
