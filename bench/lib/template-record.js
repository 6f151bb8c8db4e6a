import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Opens the LevelDB store a bench's template sweeps wrote and reads its first record: the
 * template the bench copies into many records (watch-speed.js, budget-memory.js). Also
 * hands back the built estimator, which those benches use to give each copy its rate.
 * The caller closes the store.
 *
 * @example
 * const { store, template, estimateRate } = await openTemplate(ROOT, storeDir);
 */
export async function openTemplate(root, storeDir) {
	const { LevelStore } = await import(pathToFileURL(path.join(root, 'dist/store/level/store.js')).href);
	const { estimateRate } = await import(pathToFileURL(path.join(root, 'dist/domain/schedule/rate.js')).href);
	const store = await LevelStore.open(storeDir);
	let template;
	for await (const [, record] of store.entries()) {
		template = record;
		break;
	}
	return { store, template, estimateRate };
}
