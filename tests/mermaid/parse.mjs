// Parses Mermaid diagrams with the real parser (the pinned `mermaid` package), for the tests
// (tests/preflight/test_mermaid.py). stdin: a JSON list of diagram texts. stdout: a JSON list,
// per diagram, of {"ok": false, "error": "<the parser's message>"} or {"ok": true, "type": ...}
// with what the parser made of it: a flowchart's nodes (id, label), edges and subgraphs
// (id, title, members); a Gantt chart's tasks (id, label, section). Labels are decoded as a
// browser shows them (`#35;` is `#`), so a test can compare them with the plan's values.
// One process parses a whole batch: starting Node and loading Mermaid is the slow part.
// Mermaid sanitises labels with DOMPurify, which needs a DOM: jsdom provides one.
import { JSDOM } from "jsdom";

const dom = new JSDOM("<!DOCTYPE html><html><body></body></html>");
globalThis.window = dom.window;
globalThis.document = dom.window.document;

const { default: mermaid } = await import("mermaid");
mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });

// Mermaid keeps `#35;` as a placeholder until it renders; a browser then shows the character.
const decode = (text) =>
  String(text ?? "")
    .replace(/ﬂ°°(\d+)¶ß/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/ﬂ°(\w+)¶ß/g, (_, name) => {
      const span = dom.window.document.createElement("span");
      span.innerHTML = `&${name};`;
      return span.textContent;
    });

async function describe(text) {
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const db = diagram.db;
  const type = diagram.type;
  if (type.startsWith("flowchart")) {
    return {
      type,
      nodes: [...db.getVertices().values()].map((v) => ({ id: v.id, label: decode(v.text), classes: v.classes })),
      edges: db.getEdges().map((e) => ({ from: e.start, to: e.end, label: decode(e.text) })),
      subgraphs: db.getSubGraphs().map((s) => ({ id: s.id, title: decode(s.title), members: s.nodes })),
    };
  }
  if (type === "gantt") {
    return { type, title: decode(db.getDiagramTitle()), tasks: db.getTasks().map((t) => ({ id: t.id, label: decode(t.task).trim(), section: decode(t.section) })) };
  }
  return { type };
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const text of JSON.parse(input)) {
  try {
    await mermaid.parse(text); // what GitHub runs first: throws on any syntax error
    results.push({ ok: true, ...(await describe(text)) });
  } catch (error) {
    results.push({ ok: false, error: String(error?.message ?? error).split("\n").slice(0, 4).join("\n") });
  }
}
process.stdout.write(JSON.stringify(results));
