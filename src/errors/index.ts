export { RevisitError, UsageError, StoreError, ProbeError } from './revisit-error.js';
export { EXIT, exitStatusFor } from './exit-status.js';
