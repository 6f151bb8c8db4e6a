import { optionDefaults } from '../config/setting-row.js';
import { sweepSettings } from '../config/settings.js';
import type { SweepOptions } from './sweep-options.js';

/** `--render`, `--browser`, `--render-timeout`, `--render-concurrency`, `--render-memory`. */
export interface RenderSettings {
	/** For URLs whose rule does not say: never, auto (only when the static page cannot answer), always. */
	mode: 'never' | 'auto' | 'always';
	/** The browser's executable: `--browser`, else `$REVISIT_BROWSER`, else Debian's /usr/bin/chromium. */
	browser: string;
	timeoutMs: number;
	concurrency: number;
	/** `--render-memory`: a renderer process past this many bytes is killed (RENDER_TOO_LARGE). */
	memoryBytes: number;
}

const { mode: _mode, ...renderDefaults } = optionDefaults(sweepSettings).render as Omit<RenderSettings, 'browser'>;

/** `--render-timeout`, `--render-concurrency` and `--render-memory` by default: their rows' defaults (`config/settings.ts`), in ms and bytes. */
export const RENDER_DEFAULTS: Readonly<Pick<RenderSettings, 'timeoutMs' | 'concurrency' | 'memoryBytes'>> = renderDefaults;

/** Debian's chromium: what `--render` launches unless told otherwise. */
export const DEFAULT_BROWSER = '/usr/bin/chromium';

/**
 * Whether a run may render: its `--render` is not never, or one of its rules says auto or always.
 *
 * @example
 * rendersAny({ render: { mode: 'auto', ... } }) // true
 */
export const rendersAny = (options: Pick<SweepOptions, 'render' | 'rules'>): boolean =>
	(options.render !== undefined && options.render.mode !== 'never') ||
	options.rules?.some((rule) => rule.render !== undefined && rule.render !== 'never') === true;
