// TEMPORARY STAND-IN until branch `versions` is merged: the shared interface of /work/notes/common.md.
import type { Product } from '../product/types.js';

/** One version of a page's counted text. */
export interface PageVersion { n: number; firstSeen: number; lastConfirmed: number; reason: string; added: number; removed: number; etag?: string; lastModified?: string; product?: Product; bytes: number; cut?: boolean }
