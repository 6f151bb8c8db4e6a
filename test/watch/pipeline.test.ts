import { describe, expect, it } from 'vitest';
import { validatePipeline } from '../../src/config/validate.js';
import { compilePipeline } from '../../src/pipelines/config.js';
import { pipelineWatch } from '../../src/watch/pipeline.js';

const watchOf = (config: object, now?: number) => {
	const valid = validatePipeline(config);
	return pipelineWatch(valid, compilePipeline(valid), { store: 'db', now });
};

describe('pipelineWatch', () => {
	it("maps sources onto the watch's inputs: urls as arguments, stdin, files read again, sitemaps every sitemapEvery", () => {
		const job = watchOf({
			mode: 'watch',
			source: [
				{ type: 'urls', urls: ['https://a.example/'] },
				{ type: 'stdin' },
				{ type: 'file', path: 'urls.txt' },
				{ type: 'sitemap', url: 'https://a.example/sitemap.xml' },
				{ type: 'urls', urls: ['https://b.example/'] },
			],
			stages: [{ use: 'due', minInterval: '10m', maxInterval: '2d' }],
			sinks: [{ type: 'stdout' }, { type: 'report', path: 'report.html', runs: 3 }],
			watch: { rate: '20/s', hostRate: 4, until: '1d', timeScale: 60, sitemapEvery: '6h', listen: '127.0.0.1:9464' },
		});
		expect(job.inputs).toEqual({
			urls: ['https://a.example/', 'https://b.example/'],
			stdin: true,
			files: ['urls.txt'],
			sitemaps: ['https://a.example/sitemap.xml'],
			sitemapEveryMs: 6 * 3_600_000,
		});
		expect(job.shape.options.listen).toEqual({ host: '127.0.0.1', port: 9464 });
		expect(job).toMatchObject({ store: 'db', hostGapMs: 250, shape: { reports: [{ path: 'report.html', runs: 3 }] } });
		expect(job.shape.options).toMatchObject({ checksPerDay: 20 * 86_400, timeScale: 60, until: { afterMs: 86_400_000 } });
		expect(job.bounds).toMatchObject({ minMs: 600_000, maxMs: 2 * 86_400_000 });
		// No churn guard: a watch's options have no run schedule at all.
		expect(job.shape).toMatchObject({ phase: 'watch', options: { rate: 4 } });
		expect(job.shape.options).not.toHaveProperty('maxChurn');
		expect(job.shape.sinks).toHaveLength(2);
	});

	it("starts the clock at the due stage's now, else at the one given ($REVISIT_NOW)", () => {
		const base = { mode: 'watch', source: { type: 'stdin' }, sinks: [{ type: 'stdout' }] };
		expect(watchOf(base, 1_700_000_000_000).shape.options.now).toBe(1_700_000_000_000);
		expect(watchOf(base, 1_700_000_000_000).shape.options.now).toBe(1_700_000_000_000);
		expect(watchOf({ ...base, stages: [{ use: 'due', now: 1_600_000_000_000 }] }, 1_700_000_000_000).shape.options.now).toBe(1_600_000_000_000);
	});

	it('takes listenHost as --listen-host, checked, and only with listen', () => {
		const base = { mode: 'watch', source: { type: 'stdin' }, sinks: [{ type: 'stdout' }] };
		expect(watchOf({ ...base, watch: { listen: '127.0.0.1:9464', listenHost: ['Watch.Example', '[::1]'] } }).shape.options.listenHosts).toEqual([
			'watch.example',
			'::1',
		]);
		expect(watchOf({ ...base, watch: { listen: '127.0.0.1:9464' } }).shape.options.listenHosts).toEqual([]);
		expect(() => watchOf({ ...base, watch: { listenHost: ['watch.example'] } })).toThrow(
			'/watch/listenHost: names what listen answers to; it needs /watch/listen',
		);
		expect(() => watchOf({ ...base, watch: { listen: '127.0.0.1:9464', listenHost: ['watch.example:80'] } })).toThrow(
			/listenHost.*host name or an IP address without a port/,
		);
	});

	it('refuses a pipeline that runs once', () => {
		expect(() => watchOf({ source: { type: 'stdin' }, sinks: [{ type: 'stdout' }] })).toThrow('/mode: this pipeline runs once');
	});
});
