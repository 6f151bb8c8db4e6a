export { RevisitError, UsageError, StoreError, ProbeError, ConfigError, PipelineError } from './revisit-error.js';
export { EXIT, exitStatusFor } from './exit-status.js';
