import { optionsOf } from '../config/setting-row.js';
import { sweepSettings, type SweepSettings } from '../config/settings.js';
import { RENDER_DEFAULTS } from './render-options.js';
import type { SweepOptionsInput } from './sweep-options.js';

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
	const defaults = render.mode === 'never' && render.browser === undefined && render.timeoutMs === RENDER_DEFAULTS.timeoutMs && render.concurrency === RENDER_DEFAULTS.concurrency && render.memoryBytes === RENDER_DEFAULTS.memoryBytes;
	return defaults ? undefined : render;
}
