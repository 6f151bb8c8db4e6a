import { sweepSettings, type SweepSettings } from '../../config/settings.js';
import { flagsOf } from './setting.js';

/** Parsed sweep flags, as yargs hands them over: the sweep's settings, checked. */
export type SweepFlags = SweepSettings;

/**
 * The sweep's flags: each setting's row as a yargs flag (`config/settings.ts`: its heading,
 * default, check and doc), in the order of their --help headings, with `--rate`, the old
 * name of `--host-rate`, hidden.
 */
export const sweepFlagOptions = flagsOf(sweepSettings);
