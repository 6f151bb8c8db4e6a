/** The sinks of a pipeline file's schema (see schema.ts, the one source of the file's shape). */

const when = {
	enum: ['changed', 'all', 'error', 'unchanged'],
	default: 'changed',
	description: 'Which verdicts this sink receives: changed (default), all, error, or unchanged (judged, not changed, not an error)',
} as const;
const format = { enum: ['lines', 'ndjson'], default: 'lines', description: 'lines: one URL per line; ndjson: one verdict object per line' } as const;
const path = { type: 'string', minLength: 1 } as const;
const firstSighting = {
	type: 'boolean',
	default: false,
	description: "Also a URL's first sighting (reason new); left out by default, so that a new store's first run does not flood the feed or the receiver",
} as const;

/** Where a pipeline's verdicts go: one schema per sink type. */
export const sinks = [
	{
		type: 'object',
		title: 'a stdout sink',
		additionalProperties: false,
		required: ['type'],
		properties: { type: { const: 'stdout', description: 'Standard output' }, format, when },
	},
	{
		type: 'object',
		title: 'a file sink',
		additionalProperties: false,
		required: ['type', 'path'],
		properties: {
			type: { const: 'file', description: 'A file, relative to the current directory' },
			path,
			format,
			mode: { enum: ['append', 'truncate'], default: 'append', description: 'append to the file, or truncate it when the run starts' },
			when,
		},
	},
	{
		type: 'object',
		title: 'a command sink',
		additionalProperties: false,
		required: ['type', 'command'],
		properties: {
			type: { const: 'command', description: "Pipe the lines into a shell command's standard input" },
			command: { type: 'string', minLength: 1 },
			format,
			when,
		},
	},
	{
		type: 'object',
		title: 'a dir sink',
		additionalProperties: false,
		required: ['type', 'path'],
		properties: {
			type: { const: 'dir', description: 'Fetched bodies, a folder per host, and index.ndjson (needs the fetch stage)' },
			path,
			when: { ...when, enum: ['changed', 'all', 'unchanged'] },
			diff: {
				type: 'boolean',
				default: false,
				description: 'Next to each changed body with a previous version here, a unified diff of what counts (FILE.diff)',
			},
		},
	},
	{
		type: 'object',
		title: 'an atom sink',
		additionalProperties: false,
		required: ['type', 'path'],
		properties: {
			type: { const: 'atom', description: 'An Atom feed of the changes, newest first, one entry per change (with the diff, from a dir sink with diff: true)' },
			path,
			max: { type: 'integer', minimum: 1, default: 200, description: 'Entries the feed keeps' },
			new: firstSighting,
		},
	},
	{
		type: 'object',
		title: 'a report sink',
		additionalProperties: false,
		required: ['type', 'path'],
		properties: {
			type: { const: 'report', description: 'When the run ends, an HTML page of what it changed and why (as revisit report --html), replaced each run' },
			path,
			runs: { type: 'integer', minimum: 1, default: 1, description: 'The page covers the last N runs, this one included' },
		},
	},
	{
		type: 'object',
		title: 'a webhook sink',
		additionalProperties: false,
		required: ['type', 'url'],
		properties: {
			type: { const: 'webhook', description: 'POST each change (or batch) as JSON; a change is committed only once delivered' },
			url: { type: 'string', pattern: '^https?://', description: 'The receiver' },
			secretEnv: { type: 'string', minLength: 1, description: 'The environment variable holding the HMAC-SHA256 secret (X-Revisit-Signature: sha256=…)' },
			batch: { type: 'integer', minimum: 1, default: 1, description: 'Changes per POST' },
			new: firstSighting,
		},
	},
	{
		type: 'object',
		title: 'a notify sink',
		additionalProperties: false,
		required: ['type'],
		properties: {
			type: { const: 'notify', description: 'A notification of each change, by e-mail or chat (as --notify); a change is committed only once delivered' },
			urls: {
				type: 'array',
				minItems: 1,
				items: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9+.-]*://' },
				description:
					'Apprise-style URLs: mailto://, mailtos://, ntfy://, ntfys://, discord://, slack://, tgram://, ' +
					'matrix://, matrixs://, json://, jsons://; any other scheme through the apprise command',
			},
			urlsEnv: {
				type: 'string',
				minLength: 1,
				description:
					'The environment variable holding URLs (more than one: separated by spaces), which keeps passwords and tokens out of the file; urls, urlsEnv or both',
			},
			template: {
				type: 'string',
				minLength: 1,
				description:
					'The message body, with {url}, {reason}, {price}, {previous_price}, {currency}, {availability}, ' +
					'{previous_availability}, {diff} (default: the URL, the reason, and what moved)',
			},
			apprise: { type: 'boolean', default: false, description: 'Send every URL through the apprise command, also those revisit sends itself' },
			new: firstSighting,
		},
	},
	{
		type: 'object',
		title: 'a warc sink',
		additionalProperties: false,
		required: ['type', 'path'],
		properties: {
			type: {
				const: 'warc',
				description: 'A WARC/1.1 archive of the run (.warc.gz): a response for each body read, a revisit for each 304 or same payload (as --warc)',
			},
			path,
			maxSize: {
				anyOf: [
					{ type: 'integer', minimum: 1 },
					{ type: 'string', format: 'size' },
				],
				description: 'Start a new file (PATH-00001.warc.gz, …) once one passes this size (bytes, or 512MiB, 1GB)',
			},
		},
	},
] as const;
