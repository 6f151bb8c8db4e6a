import { optionsOf } from '../config/setting-row.js';
import { sweepSettings, type SweepSettings } from '../config/settings.js';
import { RENDER_DEFAULTS } from './render-options.js';
import type { SweepOptionsInput } from './sweep-options.js';

/** The settings of a sweep's run schedule (and its per-origin `host-rate`, which a watch sets as its own), which a watch has none of. */
const SWEEP_ONLY = ['host-rate', 'ttl', 'adaptive', 'budget', 'host-budget', 'max-churn', 'churn-min', 'accept-churn', 'local-workers'] as const;
type SweepOnlySettings = (typeof SWEEP_ONLY)[number];

/** The settings a sweep and a watch share. */
export type CheckSettings = Omit<SweepSettings, SweepOnlySettings>;

/**
 * Sweep options from checked settings (a command's flags, a pipeline file's stage
 * options): each row's value at its option, in the option's unit (`optionsOf`).
 *
 * @example
 * normaliseSweepOptions(sweepOptionsFrom(argv), io.env)
 */
export function sweepOptionsFrom(flags: Partial<SweepSettings>): SweepOptionsInput {
	const { render, ...options } = optionsOf(sweepSettings, flags);
	return { ...options, render: renderOf(render as NonNullable<SweepOptionsInput['render']> | undefined) } as SweepOptionsInput;
}

/** The render settings, when any is not its default (rules may render while `--render` is never). */
function renderOf(given: Partial<NonNullable<SweepOptionsInput['render']>> | undefined): SweepOptionsInput['render'] {
	const render = { mode: 'never' as const, ...RENDER_DEFAULTS, ...given };
	const defaults =
		render.mode === 'never' &&
		render.browser === undefined &&
		render.timeoutMs === RENDER_DEFAULTS.timeoutMs &&
		render.concurrency === RENDER_DEFAULTS.concurrency &&
		render.memoryBytes === RENDER_DEFAULTS.memoryBytes;
	return defaults ? undefined : render;
}

/**
 * The options a sweep and a watch share, from their settings: no run schedule, and no
 * per-origin `rate` (a watch's is its own `host-rate`).
 *
 * @example
 * normaliseCheckOptions(checkOptionsFrom(argv), io.env)
 */
export function checkOptionsFrom(flags: Partial<CheckSettings>): SweepOptionsInput {
	const shared = Object.fromEntries(Object.entries(flags).filter(([name]) => !(SWEEP_ONLY as readonly string[]).includes(name)));
	return sweepOptionsFrom(shared as Partial<SweepSettings>);
}
