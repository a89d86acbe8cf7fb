// The playground's text helpers: share links (the rule in the URL fragment) and the
// rules in words (explain's Markdown drawn as DOM nodes, never as HTML).
"use strict";

window.RummyText = (function () {
  const SHARE_PREFIX = "v1.";  // the link format's version: a later format gets v2., and v1. links still open

  // ------------------------------------------------------------------ sharing

  function toBase64Url(bytes) {
    let text = "";
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64Url(text) {
    const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(plain.length);
    for (let i = 0; i < plain.length; i++) bytes[i] = plain.charCodeAt(i);
    return bytes;
  }

  async function pipe(bytes, stream) {
    const out = new Blob([bytes]).stream().pipeThrough(stream);
    return new Uint8Array(await new Response(out).arrayBuffer());
  }

  async function shareFragment(text) {
    const packed = await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw"));
    return SHARE_PREFIX + toBase64Url(packed);
  }

  async function readFragment(fragment) {
    if (fragment.startsWith(SHARE_PREFIX)) {
      const bytes = await pipe(fromBase64Url(fragment.slice(SHARE_PREFIX.length)), new DecompressionStream("deflate-raw"));
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    }
    throw new Error("this link was made by a newer playground, or is not a playground link");
  }

  // ------------------------------------------------------------------ the rules in words

  function inline(parent, text) {
    // `code` spans and **bold**; everything else as text (never as HTML)
    const parts = text.split(/(`[^`]+`|\*\*[^*]+\*\*)/);
    for (const part of parts) {
      if (part.startsWith("`") && part.endsWith("`") && part.length > 1) {
        const code = document.createElement("code");
        code.textContent = part.slice(1, -1);
        parent.append(code);
      } else if (part.startsWith("**") && part.endsWith("**") && part.length > 3) {
        const strong = document.createElement("strong");
        strong.textContent = part.slice(2, -2);
        parent.append(strong);
      } else if (part) {
        parent.append(document.createTextNode(part));
      }
    }
  }

  function renderMarkdown(target, markdown) {
    target.replaceChildren();
    let list = null;
    let paragraph = null;
    for (const raw of markdown.split("\n")) {
      const line = raw.trimEnd();
      const heading = /^(#{1,4})\s+(.*)$/.exec(line);
      const bullet = /^\s*(?:[-*]|(\d+)\.)\s+(.*)$/.exec(line);
      if (!line) { list = null; paragraph = null; continue; }
      if (heading) {
        const h = document.createElement(heading[1].length === 1 ? "h2" : "h3");
        inline(h, heading[2]);
        target.append(h);
        list = null; paragraph = null;
      } else if (bullet) {
        const kind = bullet[1] ? "OL" : "UL";
        if (!list || list.tagName !== kind) { list = document.createElement(kind.toLowerCase()); target.append(list); }
        const item = document.createElement("li");
        inline(item, bullet[2]);
        list.append(item);
        paragraph = null;
      } else if (list && /^\s+/.test(raw)) {
        inline(list.lastElementChild, " " + line.trim());
      } else {
        if (!paragraph) { paragraph = document.createElement("p"); target.append(paragraph); }
        else paragraph.append(document.createTextNode(" "));
        inline(paragraph, line.trim());
        list = null;
      }
    }
  }

  return { SHARE_PREFIX, shareFragment, readFragment, renderMarkdown };
})();
