import { compileRules, type RuleSpec } from '../domain/content/rules.js';
import { ConfigError, RevisitError } from '../base/errors/index.js';
import { parseJsonText } from './json-text.js';
import { problemsFromAjv, type Problem } from './problems.js';
import { ruleListSchema } from './schema.js';
import { compileSchema, problemLines } from './validate.js';

/**
 * Parses and checks a content-rule list (a `--rules` file, or what `revisit check` is
 * given) against the schema, whose formats check each selector, pattern and pointer as
 * compileRules reads them. Throws a ConfigError (exit 2) listing every problem as
 * `file:line:column: /index/field: message`.
 *
 * @example
 * const rules = validateRules('[{ "match": "shop.example", "select": [".price"] }]', 'rules.json');
 */
export function validateRules(text: string, file = 'rules'): RuleSpec[] {
	const parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
	if ('error' in parsed) {
		const { line, column, message } = parsed.error;
		throw new ConfigError([`${file}:${line}:${column}: invalid JSON: ${message}`]);
	}
	const value = parsed.json.value;
	const origin = { file, json: parsed.json };
	const validate = compileSchema(ruleListSchema);
	if (!validate(value)) throw new ConfigError(problemLines(problemsFromAjv(validate.errors ?? []), value, origin));
	const rules = value as RuleSpec[];
	// The schema's formats check what compileRules does; this is its last word, should they ever differ.
	const problems: Problem[] = [];
	rules.forEach((rule, i) => {
		try {
			compileRules([rule]);
		} catch (error) {
			if (!(error instanceof RevisitError)) throw error;
			problems.push({ pointer: `/${i}`, message: error.message.replace(/^rule 1: /, '') });
		}
	});
	if (problems.length > 0) throw new ConfigError(problemLines(problems, value, origin));
	return rules;
}
