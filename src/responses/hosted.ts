// Hosted tools' items as the model sees them (pure): the function names hosted tools are
// declared under, and the text of a hosted call's result fed back to the model.
import type { McpCallError, McpCallItem, WebSearchCallItem, ImageSearchCallItem } from "./types.ts";

export const WEB_SEARCH_FUNCTION = "web_search";
export const IMAGE_SEARCH_FUNCTION = "image_search";

/**
 * The function name an MCP server's tool is declared under: `<label>__<tool>`, in the characters
 * function names allow; a name past 64 characters keeps its start and a hash of the whole.
 */
export function mcpFunctionName(serverLabel: string, tool: string): string {
  const name = `${serverLabel}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_");
  if (name.length <= 64) return name;
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return `${name.slice(0, 55)}_${h.toString(16).padStart(8, "0")}`;
}

export function mcpErrorText(e: McpCallError): string {
  if (e.type === "mcp_tool_execution_error") {
    const parts = Array.isArray(e.content)
      ? e.content.map((p) => (p && typeof p === "object" && "text" in p ? String((p as { text: unknown }).text) : JSON.stringify(p)))
      : [JSON.stringify(e.content)];
    return `The tool failed: ${parts.join("\n")}`;
  }
  return `The call failed (${e.type} ${e.code}): ${e.message}`;
}

export function mcpResultText(item: Pick<McpCallItem, "output" | "error">): string {
  if (item.error) return mcpErrorText(item.error);
  return item.output ?? "";
}

/** Search results as numbered lines the model can cite from: `[n] url — title` and the snippet. */
export function webResultsText(query: string, results: { url: string; title?: string; snippet?: string }[]): string {
  if (results.length === 0) return `No results for "${query}".`;
  const lines = results.map((r, i) => `[${i + 1}] ${r.url}${r.title ? ` — ${r.title}` : ""}${r.snippet ? `\n${r.snippet}` : ""}`);
  return `${lines.join("\n\n")}\n\nCite a source you use as a markdown link to its URL, e.g. [${results[0]!.title || "title"}](${results[0]!.url}).`;
}

/** A search of an earlier turn: its results when the item kept them (`include`), else only that it ran. */
export function webSearchText(item: WebSearchCallItem): string {
  if (item.status === "failed") return "The search failed.";
  const kept = item.results ?? item.action.sources?.map((s) => ({ url: s.url }));
  return kept ? webResultsText(item.action.query, kept) : `Searched the web for "${item.action.query}" (its results were not kept).`;
}

export function imageSearchText(item: ImageSearchCallItem): string {
  if (item.status === "failed") return "The image search failed.";
  if (item.results.length === 0) return `No images for "${item.action.query}".`;
  return (
    item.results
      .map(
        (r, i) =>
          `[${i + 1}] ${r.image_url}${r.title ? ` — ${r.title}` : ""}${r.width && r.height ? ` (${r.width}×${r.height})` : ""}${r.source_url ? `\nfrom ${r.source_url}` : ""}`,
      )
      .join("\n\n") + "\n\nThese are absolute image URLs: they may be used directly, e.g. as the source of an image."
  );
}
