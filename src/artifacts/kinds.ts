// The two kinds of artifact and the built-in library each is written in: slide decks rooted at
// SlideShow(title, subtitle?, slides), reports at ReportView(title, subtitle?, pages) — what the
// @openuidev/thesys Presentation and Report viewers render. Compiled once, when first needed.
import { compileLibrary, type Library } from "../lang/index.ts";
import { getBuiltinLibrary } from "../library/index.ts";
import type { BuiltinPrompt } from "../prompt/builtin.ts";

export const ARTIFACT_KINDS = ["slides", "report"] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** The library version the artifact tool and the config block name (thesys-server's SLIDES/REPORT_LIBRARY_VERSION). */
export const ARTIFACT_LIBRARY_VERSION = "0.1.0";

/** The built-in library of each kind (src/library). */
const BUILTIN: Record<ArtifactKind, string> = { slides: "thesys/slideshow", report: "thesys/report-view" };

export interface ArtifactLibrary {
  kind: ArtifactKind;
  root: string;
  /** The library JSON ({root, schema}), for the fixing model. */
  source: Record<string, unknown>;
  library: Library;
  /** The pieces of the package's own prompt for this library. */
  prompt: BuiltinPrompt;
  /** Valid example programs, shown in the prompt. */
  examples: string[];
  /** What one element of the root's list is called, in prompts ("slide", "page"). */
  unit: string;
}

const EXAMPLES: Record<ArtifactKind, string[]> = {
  slides: [
    `root = SlideShow("Coffee Sales 2025", "Quarterly review", [cover, numbers, trend, next])
cover = Slide("cover", StandardTitle("Coffee Sales 2025", "Quarterly review", "Prepared for the board"))
numbers = Slide("numbers", KeyInfoWithTitle("The year in numbers", [{title: "Revenue", description: "4.2 M, up 12%"}, {title: "Stores", description: "48, six new"}]))
trend = Slide("trend", ChartWithContext("Revenue by quarter", revenue, "Q4 carried the year."))
revenue = BarChartV2({data: {labels: ["Q1", "Q2", "Q3", "Q4"], series: [{category: "Revenue", values: [0.9, 1, 1.05, 1.25]}]}, unit: "m"})
next = Slide("next", ContentClassic("Next steps", ["Open two stores in the north", "Launch the loyalty app", "Review supplier contracts"]))`,
  ],
  report: [
    `root = ReportView("Remote Work Survey", "Results of the 2025 staff survey", [front, findings])
front = Page("front", MinimalFrontPage("Remote Work Survey", TextContent("What 412 colleagues told us about working from home."), "2025 results"))
findings = Page("findings", ContentPage([InlineHeader("Key findings", "Share of answers"), metrics, TextContent("Most teams prefer two office days a week."), chart]))
metrics = KeyMetrics("row", [{title: "Answered", text: "412"}, {title: "Prefer hybrid", text: "71%"}])
chart = PieChartV2({data: [{category: "Hybrid", value: 71}, {category: "Remote", value: 19}, {category: "Office", value: 10}]})`,
  ],
};

const cache = new Map<ArtifactKind, ArtifactLibrary>();

export function artifactLibrary(kind: ArtifactKind): ArtifactLibrary {
  let lib = cache.get(kind);
  if (!lib) {
    const builtin = getBuiltinLibrary(BUILTIN[kind])!;
    const source = builtin.chatLibrary;
    lib = {
      kind,
      root: String(source.root),
      source,
      library: compileLibrary(source),
      prompt: builtin.prompt,
      examples: EXAMPLES[kind],
      unit: kind === "slides" ? "slide" : "page",
    };
    cache.set(kind, lib);
  }
  return lib;
}

export function isArtifactKind(value: unknown): value is ArtifactKind {
  return typeof value === "string" && (ARTIFACT_KINDS as readonly string[]).includes(value);
}
