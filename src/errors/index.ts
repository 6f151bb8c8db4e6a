export { RevisitError, UsageError, StoreError, ConfigError, PipelineError } from './revisit-error.js';
export { EXIT, exitStatusFor } from './exit-status.js';
