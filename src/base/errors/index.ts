export { RevisitError, UsageError, OptionError, StoreError, ConfigError, PipelineError, ERROR_CODES, type ErrorCode } from './revisit-error.js';
export { EXIT, exitStatusFor } from './exit-status.js';
