#!/usr/bin/env node
// Which formulas does KaTeX accept? One formula per line in FILE; prints one line per formula:
// "1" (accepted) or "0" (rejected), so MathAloud's benchmark can list formulas KaTeX accepts and we reject.
// Usage: NODE_PATH=/usr/share/nodejs node bench/katex-acceptance.js FILE
'use strict';
const fs = require('fs');
const katex = require('/usr/share/nodejs/katex');
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(l => l.trim() !== '');
const out = lines.map(l => {
  try { katex.renderToString(l, { output: 'mathml', throwOnError: true, strict: 'ignore' }); return '1'; }
  catch (e) { return '0'; }
});
process.stdout.write(out.join('\n') + '\n');
