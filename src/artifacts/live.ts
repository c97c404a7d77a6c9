// An artifact's program as the model writes it, made fit to show at once (pure): only the program
// goes out (fences, envelope lines and prose around it are dropped), each statement repaired as its
// line ends (the managed stream's repair, src/repair/stream-repair.ts). An edit starts from the
// program being edited, which the patch's statements then follow: in the language a later
// statement replaces an earlier one of the same name, so what was sent never needs taking back.
// Once the checked program is known (merged, repaired, stored), `finish` sends the statements of
// it that what was sent does not say yet, so that everything sent reads as that program.
import { FENCE, isMarkerAt } from "../lang/frame.ts";
import { createStreamRepair } from "../repair/stream-repair.ts";
import type { ArtifactLibrary } from "./kinds.ts";
import { readStatements } from "./merge.ts";

export interface LiveArtifact {
  /** The text to send first: the program an edit starts from ("" for a generation). */
  start(): string;
  /** The text to send now for this piece of the model's answer (often "": a line goes out when it ends). */
  push(delta: string): string;
  /** The last text to send, given the checked program: everything sent then reads as `program`. */
  finish(program: string): string;
  /** Everything sent so far. */
  sent(): string;
}

const STATEMENT = /^[ \t]*\$?[A-Za-z_][A-Za-z0-9_]*[ \t]*=[^=]/;
// `name = null` deletes in a patch; shown live it would leave its parent referring to nothing.
const DELETION = /^[ \t]*\$?[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*null[ \t]*$/;

/** Where a line of the model's answer stands: before the program, inside a fence, in a bare program, after a fence. */
type Place = "before" | "fence" | "bare" | "after";

export function liveArtifact(lib: ArtifactLibrary, base: string | null): LiveArtifact {
  const repair = createStreamRepair(lib.library);
  const start = base ? `${base.trim()}\n` : "";
  let sent = "";
  // A line break that ends what was sent goes out with the next text: the last line then ends the
  // stream without one, as the stored program does.
  let pendingBreak = false;
  let line = "";
  let place: Place = "before";
  let finished = false;

  // A whole line of the answer: the program's lines go to the repair, the rest is dropped.
  const take = (text: string): string => {
    const bare = text.replace(/\r?\n$/, "");
    if (FENCE.test(bare)) {
      place = place === "fence" ? "after" : "fence";
      return "";
    }
    if (isMarkerAt(bare.trimStart()) || DELETION.test(bare)) return "";
    if (place === "before" || place === "after") {
      if (!STATEMENT.test(bare)) return "";
      place = "bare";
    }
    return repair.push(text);
  };
  const send = (text: string) => {
    if (text === "") return "";
    let out = pendingBreak ? `\n${text}` : text;
    pendingBreak = out.endsWith("\n");
    if (pendingBreak) out = out.slice(0, -1);
    sent += out;
    return out;
  };

  return {
    start() {
      // Primed with the base, so that the patch's statements are read against it.
      if (start) repair.push(start);
      return send(start);
    },
    push(delta) {
      if (finished) return "";
      line += delta;
      let out = "";
      for (let nl = line.indexOf("\n"); nl >= 0; nl = line.indexOf("\n")) {
        out += take(line.slice(0, nl + 1));
        line = line.slice(nl + 1);
      }
      return send(out);
    },
    finish(program) {
      if (finished) return "";
      finished = true;
      let out = send((line ? take(line) : "") + repair.end().text);
      line = "";
      // What was sent, read as the language reads it (a later statement of a name wins).
      const said = new Map<string, string>();
      for (const s of readStatements(sent).statements) said.set(s.id, s.text.trim());
      const missing = readStatements(program)
        .statements.filter((s) => said.get(s.id) !== s.text.trim())
        .map((s) => s.text.trim());
      if (missing.length) {
        pendingBreak ||= sent !== "";
        out += send(missing.join("\n"));
      }
      return out;
    },
    sent: () => sent,
  };
}
