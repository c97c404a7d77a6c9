// url_citation annotations for an answer (pure): each place the text cites a source the search
// gave, as a markdown link to its URL (the whole link is the cited span) or the bare URL.

export interface UrlCitation {
  type: "url_citation";
  url: string;
  title: string;
  start_index: number;
  end_index: number;
}

export function citationsIn(text: string, sources: readonly { url: string; title: string }[]): UrlCitation[] {
  const found: UrlCitation[] = [];
  const seen = new Set<string>();
  for (const s of sources) {
    if (!s.url || seen.has(s.url)) continue;
    seen.add(s.url);
    for (let at = text.indexOf(s.url); at >= 0; at = text.indexOf(s.url, at + s.url.length)) {
      // A bare URL must end where the URL does (not be the start of a longer one).
      const after = text[at + s.url.length];
      let start = at;
      let end = at + s.url.length;
      if (text[at - 1] === "(" && text[at - 2] === "]" && after === ")") {
        const open = text.lastIndexOf("[", at - 2);
        if (open >= 0 && !text.slice(open, at - 2).includes("\n")) {
          start = open;
          end = at + s.url.length + 1;
        }
      } else if (after !== undefined && /[A-Za-z0-9/_~%-]/.test(after)) continue;
      found.push({ type: "url_citation", url: s.url, title: s.title, start_index: start, end_index: end });
    }
  }
  found.sort((a, b) => a.start_index - b.start_index);
  // Overlaps (one URL a prefix of another's link) keep the earlier, longer span.
  return found.filter((c, i) => i === 0 || c.start_index >= found[i - 1]!.end_index);
}
