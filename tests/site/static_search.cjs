// The site's static search (assets/search.js, staticSearch) under node,
// over a published site folder, as a browser without the API runs it:
//   node static_search.cjs SITE QUERIES.json [REPO]
// QUERIES.json is a JSON array of pasted texts; prints a JSON array with,
// for each, its matches ({id, score, matchType, captures, filePath,
// lineNumber}).
// STATIC_ALL_CHUNKS=N: try every record only for data sets of N meta
// chunks at most (0: always the records sharing words with the text).
'use strict';
const fs = require('fs');
const path = require('path');

const [site, queries, repo] = process.argv.slice(2);
const root = path.resolve(site);
// fetch over the site folder: "/data/search/summary.json" is SITE/data/...
globalThis.fetch = async (u) => {
  const f = path.resolve(root, '.' + decodeURI(String(u)));
  let body = null;
  if (f.startsWith(root + path.sep)) {
    try { body = fs.readFileSync(f, 'utf8'); } catch (e) { body = null; }
  }
  return { ok: body !== null, status: body === null ? 404 : 200, json: async () => JSON.parse(body) };
};
const { staticSearch, options } = require(path.join(root, 'assets', 'search.js'));
if (process.env.STATIC_ALL_CHUNKS !== undefined) options.allChunks = Number(process.env.STATIC_ALL_CHUNKS);

(async () => {
  const out = [];
  for (const q of JSON.parse(fs.readFileSync(queries, 'utf8'))) {
    const ms = await staticSearch(q, repo || '', 10);
    out.push(ms.map((m) => ({ id: m.id, score: m.score, matchType: m.matchType, captures: m.captures,
                              filePath: m.filePath, lineNumber: m.lineNumber })));
  }
  process.stdout.write(JSON.stringify(out) + '\n');
})().catch((e) => { process.stderr.write(String(e && e.stack || e) + '\n'); process.exit(1); });
