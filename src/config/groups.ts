/**
 * The headings of a run's --help, in the order they are shown: a reader looks a flag up
 * by what it configures. docs/1-usage.md's options tables follow the same headings, and
 * every setting (`config/settings.ts`) names its own.
 */
export const GROUP = {
	io: 'Input and output:',
	requests: 'Requests:',
	politeness: 'Politeness and access:',
	trust: 'Trust and verification:',
	schedule: 'Schedule and budget:',
	content: 'Content and noise:',
	feeds: 'Feeds and archives:',
	scale: 'Scale:',
} as const;

export type FlagGroup = (typeof GROUP)[keyof typeof GROUP];
