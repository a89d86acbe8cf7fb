// The playground's editor: CodeMirror 6 with YAML, check's diagnostics and completion.
// Bundled once into rummydsl/web/static/editor.js by build.sh (the page loads only that
// file: no network). It exposes window.RummyEditor.create(parent, options).
import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { keymap, hoverTooltip } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { yaml } from "@codemirror/lang-yaml";
import { linter, lintGutter, forceLinting } from "@codemirror/lint";
import { autocompletion } from "@codemirror/autocomplete";

// check's place (line and column, 1-based; 0: the whole file) as a range of the text:
// from the column to the end of the word there (at least one character).
function range(doc, line, column) {
  if (!line || line > doc.lines) {
    const first = doc.line(Math.min(Math.max(line || 1, 1), doc.lines));
    return { from: first.from, to: Math.max(first.to, Math.min(first.from + 1, doc.length)) };
  }
  const text = doc.line(line);
  let from = text.from + Math.max(0, Math.min((column || 1) - 1, text.length));
  let to = from;
  while (to < text.to && !/[\s:,\]\}]/.test(doc.sliceString(to, to + 1))) to++;
  if (to === from) to = Math.min(from + 1, text.to);
  if (to === from && from > text.from) from--;
  return { from, to };
}

export function create(parent, options) {
  const check = options.check;        // async (text) => [{line, column, message, severity, rule}]
  const complete = options.complete;  // async (text, line0, column0) => [{label, kind, detail, info}]
  const describe = options.hover;     // async (text, line0, column0) => markdown or null
  const onChange = options.onChange || (() => {});
  const onDiagnostics = options.onDiagnostics || (() => {});

  const lint = linter(async (view) => {
    const text = view.state.doc.toString();
    let found;
    try {
      found = await check(text);
    } catch (problem) {
      return [];
    }
    if (view.state.doc.toString() !== text) return [];  // typed on since: the next run shows it
    const doc = view.state.doc;
    const marks = found.map((d) => {
      const { from, to } = range(doc, d.line, d.column);
      return { from, to, severity: d.severity === "warning" ? "warning" : "error",
               message: d.message, source: d.rule };
    });
    onDiagnostics(found);
    return marks;
  }, { delay: 300 });

  const completion = autocompletion({
    override: [async (context) => {
      const word = context.matchBefore(/[\w.]*/);
      if (!context.explicit && (!word || word.from === word.to)) return null;
      const line = context.state.doc.lineAt(context.pos);
      let items;
      try {
        items = await complete(context.state.doc.toString(), line.number - 1, context.pos - line.from);
      } catch (problem) {
        return null;
      }
      if (!items.length) return null;
      return {
        from: word ? word.from : context.pos,
        options: items.map((i) => ({ label: i.label, type: i.kind === "key" ? "property" : i.kind === "function" ? "function" : "keyword",
                                     detail: i.detail || undefined, info: i.info || undefined })),
        validFor: /^[\w.]*$/,
      };
    }],
  });

  // the language server's words for the key, value or name under the pointer
  const words = hoverTooltip(async (view, pos) => {
    if (!describe) return null;
    const line = view.state.doc.lineAt(pos);
    let markdown;
    try {
      markdown = await describe(view.state.doc.toString(), line.number - 1, pos - line.from);
    } catch (problem) {
      return null;
    }
    if (!markdown) return null;
    return {
      pos,
      above: true,
      create: () => {
        const dom = document.createElement("div");
        dom.className = "cm-rummy-hover";
        if (options.renderMarkdown) options.renderMarkdown(dom, markdown);
        else dom.textContent = markdown;
        return { dom };
      },
    };
  }, { hoverTime: 300 });

  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc || "",
      extensions: [
        basicSetup,
        keymap.of([indentWithTab]),
        yaml(),
        lintGutter(),
        lint,
        completion,
        words,
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ "aria-label": options.label || "variant file (YAML)" }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(update.state.doc.toString()); }),
      ],
    }),
  });

  return {
    view,
    text: () => view.state.doc.toString(),
    setText: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    relint: () => forceLinting(view),
    goTo: (line, column) => {
      const { from } = range(view.state.doc, line, column);
      view.dispatch({ selection: { anchor: from }, scrollIntoView: true });
      view.focus();
    },
  };
}
