import { compileRules, type RuleSpec } from '../content/rules.js';
import { ConfigError, RevisitError } from '../errors/index.js';
import { parseJsonText } from './json-text.js';
import { problemsFromAjv } from './problems.js';
import { ruleListSchema } from './schema.js';
import { compileSchema } from './validate.js';

/**
 * Parses and checks a content-rule list (a `--rules` file, or what `revisit check` is
 * given): the schema first, then each selector, pattern and pointer compiled. Throws a
 * ConfigError (exit 2) listing every problem as `file: /index/field: message`.
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
	const validate = compileSchema(ruleListSchema);
	if (!validate(value)) throw new ConfigError(problemsFromAjv(validate.errors ?? []).map((problem) => `${file}: ${problem.pointer || '/'}: ${problem.message}`));
	const rules = value as RuleSpec[];
	const problems: string[] = [];
	rules.forEach((rule, i) => {
		try {
			compileRules([rule], `${file}: /${i}`);
		} catch (error) {
			if (!(error instanceof RevisitError)) throw error;
			problems.push(error.message.replace(/^(.*?: \/\d+) 1: /, '$1: '));
		}
	});
	if (problems.length > 0) throw new ConfigError(problems);
	return rules;
}
