// Delta encodings for versions: `npm run build && node bench/versions-delta.js [--pages 300] [--changes 30] [--seed 1]`
//
// How src/domain/versions/delta.ts's encoding was chosen. The pages of bench/versions.js
// (bench/lib/edited-pages.js), as visible text (what is kept of them at the defaults),
// each edited 30 times; every older version is made into a reverse delta against the
// next by three encodings, and a page's deltas are brotli-compressed together as its log
// keeps them (quality 5, text mode). Printed: bytes an older version, and the time to make
// a delta, for
//   block: the newer text indexed in 12-character blocks, the older read for them, each
//          found block stretched into a copy (as git's delta; what src/domain/versions uses);
//   word:  a word diff (domain/content/word-diff.ts's tokens through jsdiff's diffArrays, as the
//          report's word diff), its common runs as copies;
//   line:  a line diff (jsdiff's diffLines), its common lines as copies.
// Each is checked to give the older text back exactly. Block's time includes counting the
// words added and removed (the others' does not). Last, the time of a delta between two
// unrelated pages (a page rewritten whole), 20 times.
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { diffArrays, diffLines } from 'diff';
import { editedPages } from './lib/edited-pages.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = (file) => import(pathToFileURL(path.join(root, 'dist', file)).href);
const { visibleText } = await dist('domain/content/visible-text.js');
const { diffTokens } = await dist('domain/content/word-diff.js');
const { reverseDelta, applyDelta } = await dist('domain/versions/delta.js');
const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const count = arg('pages', 300);
const changes = arg('changes', 30);
const seed = arg('seed', 1);

/** A copy/insert delta from a diff's parts (newer first, older second): common parts copy, the older's own are written out. */
function fromParts(parts) {
	const delta = [];
	let at = 0;
	for (const part of parts) {
		const text = Array.isArray(part.value) ? part.value.join('') : part.value;
		if (part.added) delta.push(text);
		else {
			if (!part.removed) delta.push([at, text.length]);
			at += text.length;
		}
	}
	return delta;
}
const encodings = {
	block: (newer, older) => reverseDelta(newer, older).delta,
	word: (newer, older) => fromParts(diffArrays(diffTokens(newer), diffTokens(older))),
	line: (newer, older) => fromParts(diffLines(newer, older)),
};
const brotli = (text) =>
	brotliCompressSync(Buffer.from(text), { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }).length;

const site = editedPages(count, seed);
const history = Array.from({ length: count }, (_, i) => [visibleText(site.html(i))]);
for (let round = 1; round <= changes; round++) {
	for (let i = 0; i < count; i++) {
		site.edit(i);
		history[i].push(visibleText(site.html(i)));
	}
}
const results = {};
let newestBytes = 0;
for (const [name, encode] of Object.entries(encodings)) {
	let bytes = 0,
		ms = 0,
		deltas = 0,
		wrong = 0;
	for (const texts of history) {
		const log = [];
		for (let k = texts.length - 1; k > 0; k--) {
			const started = process.hrtime.bigint();
			const delta = encode(texts[k], texts[k - 1]);
			ms += Number(process.hrtime.bigint() - started) / 1e6;
			if (applyDelta(texts[k], delta) !== texts[k - 1]) wrong++;
			log.push(delta);
			deltas++;
		}
		bytes += brotli(JSON.stringify(log));
	}
	results[name] = { bytes: bytes / deltas, ms: ms / deltas, wrong };
}
for (const texts of history) newestBytes += brotli(texts.at(-1));
// A page rewritten whole (another page's text in its place), 20 times: what a delta costs when little is shared.
const rewrites = {};
for (const [name, encode] of Object.entries(encodings)) {
	const started = process.hrtime.bigint();
	for (let i = 0; i < 20; i++) encode(history[i + 1].at(-1), history[i].at(-1));
	rewrites[name] = Number(process.hrtime.bigint() - started) / 1e6 / 20;
}
console.log(
	`seed ${seed}: ${count} pages, ${changes} changes each; visible text ` +
		(history.reduce((sum, texts) => sum + Buffer.byteLength(texts.at(-1)), 0) / count / 1024).toFixed(1) +
		` KiB a page, ${(newestBytes / count).toFixed(0)} bytes compressed\n`,
);
console.log('| encoding | bytes an older version (in its log, compressed) | ms a delta | ms a delta, page rewritten whole | not exact |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, r] of Object.entries(results))
	console.log(`| ${name} | ${r.bytes.toFixed(1)} | ${r.ms.toFixed(3)} | ${rewrites[name].toFixed(1)} | ${r.wrong} |`);
