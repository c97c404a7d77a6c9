// What a model meant by a value the library does not list, and by a component name it does not
// have: the words of CSS, HTML and other UI libraries, matched to the library's own by meaning
// before spelling. Knowledge of those vocabularies, not of any one library: a synonym counts only
// when the library lists (or names) what it stands for.

// Listed-value synonyms: a word models write → the words it may stand for, likeliest first.
const VALUE_SYNONYMS: Record<string, string[]> = {
  "flex-start": ["start"],
  "flex-end": ["end"],
  left: ["start"],
  right: ["end"],
  top: ["start"],
  bottom: ["end"],
  centre: ["center"],
  middle: ["center"],
  centered: ["center"],
  begin: ["start"],
  beginning: ["start"],
  finish: ["end"],
  justify: ["between"],
  "justify-between": ["between"],
  spread: ["between"],
  "space-between": ["between"],
  "space-around": ["around"],
  "space-evenly": ["evenly"],
  horizontal: ["row"],
  vertical: ["column"],
  across: ["row"],
  inline: ["row"],
  down: ["column"],
  fill: ["stretch"],
  full: ["stretch"],
  expand: ["stretch"],
  stretched: ["stretch"],
  col: ["column"],
  x: ["horizontal", "row"],
  y: ["vertical", "column"],
  row: ["horizontal"],
  column: ["vertical"],
  h1: ["large-heavy", "xl", "large"],
  h2: ["large-heavy", "large"],
  h3: ["large", "large-heavy"],
  h4: ["small-heavy", "default"],
  h5: ["small-heavy", "small"],
  h6: ["small-heavy", "small"],
  title: ["large-heavy", "large"],
  heading: ["large-heavy", "large"],
  headline: ["large-heavy", "large"],
  display: ["large-heavy", "xl"],
  semibold: ["small-heavy", "large-heavy"],
  helper: ["small"],
  hint: ["small"],
  fine: ["small"],
  subtitle: ["small-heavy", "small"],
  subheading: ["small-heavy", "large"],
  label: ["small-heavy", "small"],
  caption: ["small"],
  body: ["default", "medium"],
  normal: ["default", "medium", "normal"],
  regular: ["default", "medium"],
  standard: ["default", "normal", "medium", "m"],
  base: ["default", "medium", "m"],
  compact: ["s", "small"],
  tight: ["s", "xs", "small"],
  loose: ["l", "large"],
  relaxed: ["l", "large"],
  spacious: ["l", "large"],
  mid: ["m", "medium"],
  big: ["large", "l", "lg"],
  xlarge: ["xl", "extra-large"],
  p: ["default"],
  paragraph: ["default"],
  bold: ["large-heavy", "small-heavy"],
  tiny: ["xs", "extra-small"],
  "x-small": ["xs", "extra-small"],
  "extra-small": ["xs"],
  "x-large": ["xl", "extra-large"],
  "extra-large": ["xl"],
  "xx-large": ["2xl"],
  huge: ["2xl", "xl"],
  error: ["danger", "error", "destructive"],
  danger: ["error", "destructive"],
  destructive: ["danger", "error"],
  critical: ["danger", "error"],
  warn: ["warning"],
  caution: ["warning"],
  ok: ["success"],
  done: ["success"],
  complete: ["success"],
  completed: ["success"],
  green: ["success"],
  red: ["danger", "error"],
  blue: ["info"],
  yellow: ["warning"],
  amber: ["warning"],
  orange: ["warning"],
  notice: ["info"],
  positive: ["success"],
  negative: ["danger", "error"],
  information: ["info"],
  note: ["info", "neutral"],
  default: ["neutral", "default", "primary"],
  muted: ["neutral", "sunk", "small"],
  subtle: ["sunk", "tertiary", "neutral"],
  gray: ["neutral", "sunk"],
  grey: ["neutral", "sunk"],
  recessed: ["sunk"],
  filled: ["primary", "sunk"],
  solid: ["primary"],
  cta: ["primary"],
  alt: ["secondary"],
  alternate: ["secondary"],
  main: ["primary"],
  outline: ["secondary", "card"],
  outlined: ["secondary", "card"],
  bordered: ["card", "secondary"],
  shadow: ["card"],
  boxed: ["card"],
  ghost: ["tertiary"],
  link: ["tertiary"],
  text: ["tertiary", "string"],
  sunken: ["sunk"],
  inset: ["sunk"],
  transparent: ["clear"],
  plain: ["clear"],
  borderless: ["clear"],
  none: ["clear"],
  flat: ["clear"],
  elevated: ["card"],
  raised: ["card"],
  doughnut: ["donut"],
  ring: ["donut"],
  group: ["grouped"],
  clustered: ["grouped"],
  stack: ["stacked", "column"],
  smooth: ["natural"],
  curved: ["natural"],
  monotone: ["natural"],
  straight: ["linear"],
  stepped: ["step"],
  numeric: ["number"],
  int: ["number"],
  integer: ["number"],
  float: ["number"],
  str: ["string"],
  textarea: ["text"],
};

const SYNONYM_WORDS = Object.keys(VALUE_SYNONYMS);

// Abbreviations that are not a prefix of their word.
const ABBREVIATIONS: Record<string, string[]> = {
  sm: ["small", "s"],
  md: ["medium", "m"],
  lg: ["large", "l"],
  xs: ["extra-small", "x-small"],
  xl: ["extra-large", "x-large"],
  m: ["medium", "md"],
  s: ["small", "sm"],
  l: ["large", "lg"],
  small: ["s", "sm"],
  medium: ["m", "md"],
  large: ["l", "lg"],
};

// Sizes in pixels on a spacing scale: the listed step nearest to the number.
const SCALE = ["none", "xs", "s", "m", "l", "xl", "2xl"];
const SCALE_PX = [0, 4, 8, 16, 24, 32, 48];

// Words of a size scale by step: the spacing scale (SCALE) and the words of type and control sizes.
const SIZE_STEPS: Record<string, number> = {
  "extra-small": 1,
  "x-small": 1,
  tiny: 1,
  small: 2,
  sm: 2,
  medium: 3,
  md: 3,
  default: 3,
  normal: 3,
  regular: 3,
  large: 4,
  lg: 4,
  big: 4,
  "extra-large": 5,
  "x-large": 5,
  "xx-large": 6,
  huge: 6,
};
const sizeStep = (word: string): number | undefined => {
  const i = SCALE.indexOf(word);
  return i !== -1 ? i : Object.hasOwn(SIZE_STEPS, word) ? SIZE_STEPS[word] : undefined;
};

// Words for true and false where a boolean goes (`yes`, `"No"`). Not `on`/`off`: in quotes, those
// are more often a listed value moved out of its place.
const TRUTH: Record<string, boolean> = { true: true, false: false, yes: true, no: false };

/** `"true"` or `"false"` for a word that says one (any case), else null. */
export function truthOf(word: string): string | null {
  const w = word.trim().toLowerCase();
  return Object.hasOwn(TRUTH, w) ? String(TRUTH[w]) : null;
}

/** A word in one form: lower case, words joined by `-` (`Small_Heavy`, `smallHeavy`, `small heavy` → `small-heavy`). */
export function normal(word: string): string {
  return word
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[\s_]+/g, "-");
}

// A word of a value of several said another way (`bold` in `bold-large`).
const WORD_SYNONYMS: Record<string, string> = { bold: "heavy", strong: "heavy", semibold: "heavy", big: "large", lg: "large", sm: "small", caption: "small" };

/** A value of several words (normal form) as its words said one way, in order; null for one word. */
function reworded(n: string): string | null {
  if (!n.includes("-")) return null;
  return n
    .split("-")
    .map((w) => (Object.hasOwn(WORD_SYNONYMS, w) ? WORD_SYNONYMS[w] : w))
    .sort()
    .join("-");
}

/** The listed value `value` means, by form, synonym, pixel size or abbreviation; null when none. */
export function listedByMeaning(value: string, listed: readonly string[]): string | null {
  const byNormal = new Map(listed.map((v) => [normal(v), v]));
  const n = normal(value);
  const direct = byNormal.get(n) ?? byNormal.get(n.replace(/-/g, ""));
  if (direct !== undefined) return direct;
  // The same words in another order or said another way (`bold-large`, `largeBold`: `large-heavy`).
  const said = reworded(n);
  if (said !== null) for (const v of listed) if (reworded(normal(v)) === said) return v;
  const own = (table: Record<string, string[]>) => (Object.hasOwn(table, n) ? table[n] : []);
  for (const w of [...own(VALUE_SYNONYMS), ...own(ABBREVIATIONS)]) {
    const hit = byNormal.get(w);
    if (hit !== undefined) return hit;
  }
  const px = /^(-?\d+(?:\.\d+)?)(?:px|rem|em)?$/.exec(n);
  if (px && listed.filter((v) => SCALE.includes(v)).length >= 3) {
    const size = Number(px[1]) * (n.endsWith("rem") || n.endsWith("em") ? 16 : 1);
    let best = -1;
    for (let i = 0; i < SCALE.length; i++)
      if (listed.includes(SCALE[i]) && (best === -1 || Math.abs(SCALE_PX[i] - size) < Math.abs(SCALE_PX[best] - size))) best = i;
    if (best !== -1) return SCALE[best];
  }
  // A size the list has no word for (`xl` where it goes up to `large`): its nearest listed size.
  const step = sizeStep(n);
  if (step !== undefined) {
    let best: string | null = null;
    let gap = Infinity;
    for (const v of listed) {
      const at = sizeStep(normal(v));
      if (at !== undefined && Math.abs(at - step) < gap) [best, gap] = [v, Math.abs(at - step)];
    }
    if (best !== null) return best;
  }
  // A prefix (`col` for `column`, `desc` for `descending`), when one listed value has it.
  if (n.length >= 2) {
    const prefixed = listed.filter((v) => normal(v).startsWith(n));
    if (prefixed.length === 1) return prefixed[0];
  }
  // A prefix of a synonym (`horiz` for `horizontal`, which means `row`), when one synonym has it.
  if (n.length >= 4) {
    const words = SYNONYM_WORDS.filter((w) => w.startsWith(n));
    const hit = words.length === 1 ? VALUE_SYNONYMS[words[0]].find((w) => byNormal.has(w)) : undefined;
    if (hit !== undefined) return byNormal.get(hit)!;
  }
  return null;
}

// Component names of HTML and other UI libraries → the kinds of component they stand for.
// Candidates are the library's components whose names hold one of these words (begin with it, for `^word`).
const NAME_WORDS: Record<string, string[]> = {
  div: ["stack", "card"],
  row: ["stack"],
  column: ["stack", "col"],
  col: ["col", "stack"],
  vstack: ["stack"],
  hstack: ["stack"],
  flex: ["stack"],
  grid: ["stack", "table"],
  container: ["stack", "card"],
  box: ["stack", "card"],
  section: ["card", "stack"],
  layout: ["stack"],
  view: ["stack", "card"],
  wrapper: ["stack", "card"],
  flexbox: ["stack"],
  horizontal: ["stack"],
  vertical: ["stack"],
  main: ["stack"],
  page: ["stack"],
  figure: ["image"],
  sparkline: ["linechart", "line"],
  panel: ["card"],
  paper: ["card"],
  tile: ["card"],
  text: ["text"],
  paragraph: ["text", "markdown"],
  p: ["text"],
  span: ["text", "label"],
  typography: ["text"],
  heading: ["text", "header"],
  title: ["header", "text"],
  header: ["header"],
  alert: ["callout"],
  banner: ["callout"],
  notice: ["callout"],
  message: ["callout"],
  toast: ["callout"],
  btn: ["button"],
  actions: ["buttons"],
  toolbar: ["buttons"],
  link: ["button"],
  badge: ["tag"],
  chip: ["tag"],
  pill: ["tag"],
  tags: ["tagblock", "tag"],
  datatable: ["table"],
  option: ["selectitem", "radioitem"],
  menuitem: ["selectitem"],
  dropdown: ["select"],
  picker: ["select", "datepicker"],
  textfield: ["input"],
  textinput: ["input"],
  textbox: ["textarea", "input"],
  img: ["image"],
  picture: ["image"],
  photo: ["image"],
  divider: ["separator"],
  hr: ["separator"],
  markdown: ["markdown"],
  tablist: ["tabs"],
  tabgroup: ["tabs"],
  collapse: ["accordion"],
  collapsible: ["accordion"],
  range: ["slider"],
  chart: ["chart"],
  graph: ["chart"],
  // A column chart is the vertical bar chart (BarChart, not HorizontalBarChart).
  columnchart: ["^barchart"],
  columngraph: ["^barchart"],
  verticalbarchart: ["^barchart"],
  histogram: ["^barchart"],
  bar: ["^barchart"],
  pie: ["piechart"],
  donut: ["piechart"],
  line: ["linechart", "separator"],
  // A list of columns is a table; of anything else, a stack (which Table does not take).
  list: ["table", "stack"],
  checkbox: ["checkbox"],
  switch: ["switch"],
  toggle: ["switch"],
  radio: ["radio"],
  form: ["form"],
};

// Words that make a name an input: "text" means text shown, not a TextArea, unless the hint says so.
const INPUT_WORDS = ["textarea", "input", "field"];

/**
 * Whether a candidate's name (lower case) holds a hint's word, and is no input the hint does not
 * name; a hint that begins with `^` must begin it.
 */
function hinted(cand: string, hint: string): boolean {
  if (hint.startsWith("^")) return cand.startsWith(hint.slice(1));
  return cand.includes(hint) && !INPUT_WORDS.some((w) => cand.includes(w) && !hint.includes(w));
}

// Words of the names seen, kept: a library's names are split once, not for every unknown call.
const WORDS = new Map<string, string[]>();
const MAX_WORDS = 10_000;

/** The words a component name is made of, lower case (`BarGraph` → bar, graph). */
function words(name: string): string[] {
  let out = WORDS.get(name);
  if (out === undefined) {
    if (WORDS.size >= MAX_WORDS) WORDS.clear();
    WORDS.set(name, (out = split(name)));
  }
  return out;
}

function split(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map(singular);
}

/** A word without its plural `s` (`Buttons` and `ButtonGroup` share "button"). */
const singular = (word: string) => (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word);

/**
 * How strongly `name` (a component the library does not have) means `candidate`, 0 to 1: the
 * whole name or one of its words is a known synonym of a word in the candidate's name, or the
 * two share a word (`ColumnChart` and `BarChart` share "chart").
 */
export function nameMeaning(name: string, candidate: string): number {
  const cand = candidate.toLowerCase();
  const whole = name.toLowerCase();
  const hints = Object.hasOwn(NAME_WORDS, whole) ? NAME_WORDS[whole] : undefined;
  if (hints) {
    const i = hints.findIndex((w) => hinted(cand, w));
    if (i !== -1) return i === 0 ? 1 : 0.8;
  }
  let best = 0;
  const candWords = words(candidate);
  for (const w of words(name)) {
    if (candWords.includes(w)) best = Math.max(best, 0.6);
    const h = Object.hasOwn(NAME_WORDS, w) ? NAME_WORDS[w] : undefined;
    if (h && h.some((x) => hinted(cand, x))) best = Math.max(best, 0.5);
  }
  return best;
}
