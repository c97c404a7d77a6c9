// The language's rules as the model is told them (the grammar is grammar/ui.ohm, docs/language.md);
// short on purpose: every line here costs tokens on every managed request.

export const SYNTAX_RULES = `Write the answer as a program in the UI language, one statement per line:
- A statement is \`name = expression\`. The statement named \`root\` is what is shown; every other component or value statement must be reachable from \`root\`.
- Build components by calling them with positional arguments, in the order of their signature: \`Button("Save", "primary")\`. Never name arguments (\`Button(label: "Save")\` is wrong). Optional trailing arguments may be left out.
- Refer to other statements by name to keep lines short: \`root = Stack([title, table])\`, then define \`title\` and \`table\` on their own lines. Every name you use must be defined.
- Values: strings in double quotes with JSON escapes, numbers, true, false, null, arrays \`[a, b]\`, objects \`{key: value}\`.
- A newline ends a statement only outside brackets and strings, so long arrays may span lines.
- State variables start with \`$\` (\`$tab = "overview"\`); builtins start with \`@\` (\`@Count(rows)\`, \`@Each(rows, "row", Text(row.name))\`).
- Actions: \`Action([@ToAssistant("message"), @OpenUrl("https://…"), @Set($v, value), @Reset($v)])\`.
- Use only the components listed below, with arguments of the listed types; an enum argument takes one of its listed values exactly.
- Output only the program: no prose before or after it, no Markdown fences, no comments.`;
