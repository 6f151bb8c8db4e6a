import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
const [dist, ...files] = process.argv.slice(2);
const { readOffer } = await import(dist + '/product/offer.js');
const { parseWithMarkup } = await import(dist + '/product/parse.js');
for (const f of files) {
  let b = readFileSync('/work/shared/product-corpus/' + f); if (f.endsWith('.gz')) b = gunzipSync(b);
  const html = b.toString('utf8');
  const t0 = process.cpuUsage();
  for (let i = 0; i < 20; i++) { const { document, markup } = parseWithMarkup(html); readOffer(document, {}, markup); }
  const u = process.cpuUsage(t0); console.log(f, ((u.user + u.system) / 20000).toFixed(2), 'ms');
}
