// TEMPORARY STAND-IN until branch `versions` is merged: the shared interface of /work/notes/common.md.
import type { ValidatorStore } from '../store/types.js';
import type { PageVersion } from './types.js';

export type { PageVersion } from './types.js';
export async function pageVersions(_store: ValidatorStore, _url: string): Promise<PageVersion[]> { return []; }
export async function versionText(_store: ValidatorStore, _url: string, _n: number): Promise<string | undefined> { return undefined; }
