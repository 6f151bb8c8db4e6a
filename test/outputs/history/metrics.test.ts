import { describe, expect, it } from 'vitest';
import { escapeLabelValue, formatMetrics, formatValue } from '../../../src/outputs/history/metrics.js';
import { run, T0 } from './fixtures.js';

const last = run(T0, {
	endedAt: T0 + 2500,
	urls: 20,
	changed: 3,
	notModified: 12,
	sameHash: 4,
	errors: 1,
	bytes: 4000,
	fullBytes: 16_000,
	hosts: {
		'https://b.example': { urls: 10, changed: 3, conditional: 0, notModified: 0 },
		'https://a.example': { urls: 10, changed: 0, conditional: 8, notModified: 6 },
	},
});

describe('Prometheus metrics of the last run', () => {
	it('writes HELP, TYPE and a sample for each figure', () => {
		const text = formatMetrics(last);
		expect(text).toContain(
			'# HELP revisit_last_run_changed URLs reported changed in the last sweep.\n# TYPE revisit_last_run_changed gauge\nrevisit_last_run_changed 3\n',
		);
		expect(text).toContain('\nrevisit_last_run_errors 1\n');
		expect(text).toContain('\nrevisit_last_run_bytes_saved 12000\n');
		expect(text).toContain(`\nrevisit_last_run_timestamp_seconds ${(T0 + 2500) / 1000}\n`);
		expect(text).toContain('\nrevisit_last_run_duration_seconds 2.5\n');
		expect(text.endsWith('\n')).toBe(true);
		for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^(# (HELP|TYPE) revisit_\w+ .+|revisit_\w+(\{host="[^"]*"\})? -?[\d.e+-]+)$/);
	});

	it('gives same-content apart from same-hash, and URLs not checked apart from errors (0 for a run stored before them)', () => {
		const text = formatMetrics({ ...last, sameContent: 7, rebaseline: 1, deferred: 5, unreachable: 3 });
		expect(text).toContain('\nrevisit_last_run_same_hash 4\n');
		expect(text).toContain('\nrevisit_last_run_same_content 7\n');
		expect(text).toContain('\nrevisit_last_run_rebaseline 1\n');
		expect(text).toContain('\nrevisit_last_run_deferred 5\n');
		expect(text).toContain('\nrevisit_last_run_robots_unreachable 3\n');
		expect(formatMetrics(last)).toContain('\nrevisit_last_run_same_content 0\n');
	});

	it('gives per-host series sorted by origin, a ratio only where conditional requests were sent', () => {
		const text = formatMetrics(last);
		expect(text).toContain('revisit_last_run_host_changed{host="https://a.example"} 0\nrevisit_last_run_host_changed{host="https://b.example"} 3\n');
		expect(text).toContain('revisit_last_run_not_modified_ratio{host="https://a.example"} 0.75\n');
		expect(text).not.toContain('revisit_last_run_not_modified_ratio{host="https://b.example"}');
	});

	it('keeps only matching hosts with a filter, and drops a family left without samples', () => {
		const text = formatMetrics(last, { host: 'b.example' });
		expect(text).not.toContain('a.example');
		expect(text).not.toContain('revisit_last_run_not_modified_ratio');
		expect(text).toContain('revisit_last_run_changed 3\n');
	});

	it('escapes label values and spells special values as Prometheus does', () => {
		expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
		expect([NaN, Infinity, -Infinity, 3, 0.25].map(formatValue)).toEqual(['NaN', '+Inf', '-Inf', '3', '0.25']);
	});
});
