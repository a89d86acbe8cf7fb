#!/usr/bin/env bash
# Build the playground's editor bundle once: CodeMirror 6 from the npm registry, bundled
# by esbuild into rummydsl/web/static/editor.js (committed; the page and its users need
# no Node.js and no network). Run again only to change or update the editor:
#   cd web && ./build.sh
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
npx esbuild editor.js --bundle --minify --format=iife --global-name=RummyEditor \
  --outfile=../rummydsl/web/static/editor.js --legal-comments=eof \
  --banner:js="/* The rummydsl playground editor: CodeMirror 6 (MIT licence, (c) Marijn Haverbeke and others, https://codemirror.net) and Lezer, bundled by web/build.sh from the versions in web/package-lock.json. */"
ls -l ../rummydsl/web/static/editor.js
