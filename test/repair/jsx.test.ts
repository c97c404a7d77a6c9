// JSX elements read as calls (src/repair/jsx.ts): attributes as named arguments, children as one more.
import { describe, expect, test } from "bun:test";
import { jsxAsCalls, jsxTexts } from "../../src/repair/jsx.ts";

describe("jsxAsCalls", () => {
  test("an element that closes itself: attributes by name, a bare one set", () => {
    expect(jsxAsCalls('x = <Tag label="New" size={2} active />')).toBe('x = Tag(label: "New", size: 2, active: true)');
    expect(jsxAsCalls("x = <Divider/>")).toBe("x = Divider()");
  });

  test("children: a text or an expression alone as it is, elements and several as a list", () => {
    expect(jsxAsCalls('x = <Callout variant="info">Read me</Callout>')).toBe('x = Callout(variant: "info", children: "Read me")');
    expect(jsxAsCalls("x = <Stack>{[a, b]}</Stack>")).toBe("x = Stack(children: [a, b])");
    expect(jsxAsCalls("x = <Stack>{a} {b}{/* note */}</Stack>")).toBe("x = Stack(children: [a, b])");
    expect(jsxAsCalls('x = <Card><Tag label="A" /><Tag label="B" /></Card>')).toBe('x = Card(children: [Tag(label: "A"), Tag(label: "B")])');
    // Elements in braces too, an attribute's or a child's.
    expect(jsxAsCalls('x = <Card header={<CardHeader title="Q3" />}>{[<Tag label="A" />]}</Card>')).toBe(
      'x = Card(header: CardHeader(title: "Q3"), children: [Tag(label: "A")])',
    );
    // Beside an attribute named children, one more argument placed by its value.
    expect(jsxAsCalls("x = <Steps children={[s1]}>Getting started</Steps>")).toBe('x = Steps(children: [s1], "Getting started")');
  });

  test("a text over lines keeps its lines, without the indentation they share", () => {
    expect(jsxAsCalls("x = <Md>\n  - one\n    - two\n  - three\n</Md>")).toBe('x = Md(children: "- one\\n  - two\\n- three")');
    expect(jsxAsCalls('x = <Note>Say "hi"</Note>')).toBe('x = Note(children: "Say \\"hi\\"")');
  });

  test("HTML elements are named as components; a closing tag misspelt still closes", () => {
    expect(jsxAsCalls("x = <div><h2>Title</h2></div>")).toBe('x = Div(children: [H2(children: "Title")])');
    expect(jsxAsCalls("x = <Card>Hi</Crad>")).toBe('x = Card(children: "Hi")');
  });

  test("what is no element is left as it was", () => {
    expect(jsxAsCalls('x = TextContent("a <b> c")')).toBeNull();
    expect(jsxAsCalls("x = a < B ? 1 : 2")).toBeNull();
    expect(jsxAsCalls('x = <Callout variant="info">Read me</Callout')).toBeNull();
    expect(jsxAsCalls('x = <Tag label="New />')).toBeNull();
    // Deep nesting is no element (and no deep recursion), whatever the length.
    expect(jsxAsCalls(`x = ${"<A>".repeat(50_000)}`)).toBeNull();
    expect(jsxAsCalls(`x = ${"<A>".repeat(40)}hi${"</A>".repeat(40)}`)).toBeNull();
  });
});

describe("jsxTexts", () => {
  test("the text children of a line with a closing tag, read or not", () => {
    expect(jsxTexts('x = <Callout variant="info">Read me</Callout')).toEqual(["Read me"]);
    expect(jsxTexts("x = <h1>Pricing</h1> <p>Plans</p>")).toEqual(["Pricing", "Plans"]);
    expect(jsxTexts("x = a > b && c < d")).toEqual([]);
  });
});
