// Parses Mermaid diagrams with the real parser (the pinned `mermaid` package), for the tests.
// stdin: a JSON list of diagram texts; stdout: a JSON list, per diagram, of
// {"ok": true, "type": "<diagram type>"} or {"ok": false, "error": "<the parser's message>"}.
// One process parses a whole batch: starting Node and loading Mermaid is the slow part.
// Mermaid sanitises labels with DOMPurify, which needs a DOM: jsdom provides one.
import { JSDOM } from "jsdom";

const dom = new JSDOM("<!DOCTYPE html><html><body></body></html>");
globalThis.window = dom.window;
globalThis.document = dom.window.document;
globalThis.DOMParser = dom.window.DOMParser;
globalThis.Element = dom.window.Element;
globalThis.HTMLElement = dom.window.HTMLElement;

const { default: mermaid } = await import("mermaid");
mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const text of JSON.parse(input)) {
  try {
    const parsed = await mermaid.parse(text);
    results.push({ ok: true, type: parsed.diagramType });
  } catch (error) {
    results.push({ ok: false, error: String(error?.message ?? error).split("\n").slice(0, 4).join("\n") });
  }
}
process.stdout.write(JSON.stringify(results));
