export { pageVersions, versionText, versionTexts, type PageVersion } from './read.js';
export { addVersion, type Before, type NewVersion } from './add.js';
export { applyDelta, reverseDelta, type ReverseDelta } from './delta.js';
