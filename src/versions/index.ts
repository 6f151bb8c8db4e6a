// Stand-in for the versions helper's API (common.md's shared interface), replaced by the
// `versions` branch when it is merged.
import type { Product } from '../product/types.js';
import type { ValidatorStore } from '../store/types.js';

export interface PageVersion {
	n: number;
	firstSeen: number;
	lastConfirmed: number;
	reason: string;
	added: number;
	removed: number;
	etag?: string;
	lastModified?: string;
	product?: Product;
	bytes: number;
	cut?: boolean;
}

export async function pageVersions(_store: ValidatorStore, _url: string): Promise<PageVersion[]> {
	return [];
}

export async function versionText(_store: ValidatorStore, _url: string, _n: number): Promise<string | undefined> {
	return undefined;
}
