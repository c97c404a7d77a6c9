// The service's built-in component libraries: OpenUI's own, generated from the npm packages that
// render them by scripts/generate-libraries.ts (the JSON in ./openui; MIT, see ./openui/LICENSE).
// A config block's `libraryVersion` names one; "0.1.0" is @openuidev/thesys's chat library, the
// one OpenUI's SDKs mean by it.
import type { BuiltinPrompt } from "../prompt/builtin.ts";
import thesysChat from "./openui/thesys-chat.json" with { type: "json" };
import thesysPresentation from "./openui/thesys-presentation.json" with { type: "json" };
import thesysReport from "./openui/thesys-report.json" with { type: "json" };
import thesysDashboard from "./openui/thesys-dashboard.json" with { type: "json" };
import thesysSlideshow from "./openui/thesys-slideshow.json" with { type: "json" };
import thesysReportView from "./openui/thesys-report-view.json" with { type: "json" };
import openuiChat from "./openui/react-ui-openui-chat.json" with { type: "json" };
import openui from "./openui/react-ui-openui.json" with { type: "json" };

export interface BuiltinLibrarySource {
  /** The name a config block's libraryVersion gives it (besides "0.1.0" for the chat library). */
  name: string;
  generatedFrom: { package: string; version: string; export: string; license: string };
  /** The library as a config block carries it: root, componentGroups, schema. */
  chatLibrary: Record<string, unknown>;
  /** The pieces of the package's own prompt (src/prompt/builtin.ts assembles them). */
  prompt: BuiltinPrompt;
}

/** What {"libraryVersion":"0.1.0"} names: @openuidev/thesys's chat library (root Card). */
export const BUILTIN_VERSION = "0.1.0";

const generated = [
  thesysChat,
  thesysPresentation,
  thesysReport,
  thesysDashboard,
  thesysSlideshow,
  thesysReportView,
  openuiChat,
  openui,
] as unknown as BuiltinLibrarySource[];

/** Every built-in library, by each name a config block may give it. */
export const builtInLibraries: Readonly<Record<string, BuiltinLibrarySource>> = Object.freeze(
  Object.fromEntries([[BUILTIN_VERSION, generated[0]!], ...generated.map((l) => [l.name, l] as const)]),
);

/** The built-in library of that name, or null ("constructor" and the like are not names). */
export function getBuiltinLibrary(name: string): BuiltinLibrarySource | null {
  return Object.hasOwn(builtInLibraries, name) ? builtInLibraries[name]! : null;
}
