/** The content rules' and request headers' schemas: a rules file's and a pipeline's (see schema.ts). */

/** A list of CSS selectors, each checked by the schema's `selector` format as compileRules reads it. */
const selectors = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1, format: 'selector' } } as const;

/** One content rule: which part of a 200 body counts for the URLs it matches (see docs/6-noise.md). */
export const ruleSchema = {
	type: 'object',
	title: 'a content rule',
	additionalProperties: false,
	properties: {
		match: {
			type: 'string',
			minLength: 1,
			format: 'url-match',
			description:
				'The URLs it applies to: a hostname with its dot (shop.example; localhost), compared whole, or else a regular expression searched ' +
				'for in the URL (/item/, \\.pdf$); absent: every URL. A word without a dot is refused: it would be read as a host no one has',
		},
		select: { ...selectors, description: 'CSS selectors: only the matching elements count (HTML)' },
		exclude: {
			...selectors,
			description: 'CSS selectors: the matching elements are removed before counting, with or without select (HTML): a timestamp, a "recently viewed" block',
		},
		text: { type: 'boolean', description: 'Only the visible text counts (scripts, styles and tags dropped, whitespace collapsed)' },
		ignore: {
			type: 'array',
			minItems: 1,
			items: { type: 'string', minLength: 1, format: 'regex' },
			description:
				'Regular expressions whose matches are removed before hashing; for JSON, keys they match are dropped and their matches in string values removed',
		},
		pointer: {
			type: 'array',
			minItems: 1,
			items: { type: 'string', format: 'json-pointer' },
			description: 'JSON Pointers (RFC 6901): only these parts of a JSON document count',
		},
		learn: {
			type: 'boolean',
			description: 'Learn noise on these URLs, as --learn-noise does for all: a new or changed page is fetched twice, what differs is left out from then on',
		},
		render: {
			enum: ['never', 'auto', 'always'],
			description: 'Render these pages in Chromium (as --render): never, auto (only when the static page cannot answer the rule), or always',
		},
		product: {
			type: 'boolean',
			description:
				"Only the page's offer counts: its own product's price, currency and availability (not related products'), " +
				'read from JSON-LD, microdata, RDFa or OpenGraph (see docs/7-products.md)',
		},
		price: { ...selectors, description: 'CSS selectors whose text gives the price where the page has no structured data (implies product)' },
		availability: {
			...selectors,
			description: 'CSS selectors whose text gives the availability ("In stock", "Sold out") where the page has no structured data (implies product)',
		},
	},
} as const;

/** A rule list: the first rule whose `match` fits a URL applies to it. */
export const ruleListSchema = { type: 'array', items: ruleSchema, description: 'Content rules, in order; the first whose match fits a URL applies' } as const;

/** One request header (as -H): for every URL, or those its `match` fits; its value written here or taken from the environment. */
export const headerSchema = {
	type: 'object',
	title: 'a request header',
	additionalProperties: false,
	required: ['name', 'value'],
	properties: {
		name: {
			type: 'string',
			pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
			description: "The header name; Host, If-None-Match, If-Modified-Since, Accept-Encoding and Range are revisit's own and refused",
		},
		value: {
			description: 'The value, or {"env": "NAME"} to take it from an environment variable (so secrets stay out of the file; such a value is never shown)',
			anyOf: [
				{ type: 'string' },
				{
					type: 'object',
					title: 'a value from the environment',
					additionalProperties: false,
					required: ['env'],
					properties: { env: { type: 'string', minLength: 1, description: 'The environment variable holding the value' } },
				},
			],
		},
		match: {
			type: 'string',
			minLength: 1,
			format: 'header-match',
			description:
				'The URLs it is sent to: an origin (https://api.example.org), a host with its dot (example.org, ' +
				'example.org:8080; localhost), or else a regular expression searched for in the URL; absent: every URL',
		},
	},
} as const;

/** Request headers, in order: a later one of the same name wins where both match. */
export const headerListSchema = {
	type: 'array',
	items: headerSchema,
	description: "Request headers added to the run's requests (as -H), for every URL or those each matches",
} as const;
