import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { QueueStats } from '../store/model/due.js';
import { REASONS, type Reason } from '../domain/task/types.js';
import { OptionError } from '../base/errors/index.js';

/** One origin's backlog, for `revisit_queue_depth{origin}`. */
export interface OriginDepth {
	origin: string;
	/** Its URLs due by now and not claimed. */
	depth: number;
}

/** What the scheduler's model says, for the model's gauges. */
export interface ModelFigures {
	/** The threshold μ the intervals solve U(I) = μ for, in days. */
	mu: number;
	/** The expected fraction of watched pages fresh (0..1) under the current intervals and estimated rates. */
	freshness: number;
	/** Checks per second the rate asks for (`--rate`), schedule clock. */
	target: number;
	/** Checks per second the schedule dispatches now, schedule clock. */
	rate: number;
}

/** One delivery target as the metrics show it (io/outbox/worker.ts's TargetStatus): named without its secrets. */
export interface TargetFigures {
	shown: string;
	pending: number;
	failures: number;
	dropped: number;
}

export interface WatchMetricsOptions {
	/** Most origins `revisit_queue_depth` shows, those with the deepest backlog (20). */
	origins?: number;
	/** The delivery targets, read at each scrape (`revisit_deliveries_pending{target}`, …). */
	deliveries?: (() => readonly TargetFigures[]) | undefined;
}

/** The watch's metrics (docs/13-watch.md has the table); each watch owns one registry. */
export interface WatchMetrics {
	/** The registry every metric is on, prom-client's process metrics included. */
	readonly registry: Registry;
	/** The Content-Type of `text()`: Prometheus's text format 0.0.4. */
	readonly contentType: string;
	/** One check's verdict: its reason, the body bytes received, whether it changed, and the requests it made (none for `robots` and `deferred`, else 1). */
	check(reason: Reason, bytes: number, changed: boolean, requests?: number): void;
	/** One URL dispatched `seconds` (schedule clock) after it was due. */
	late(seconds: number): void;
	/** The schedule's size; `depths` replaces the per-origin backlogs (the deepest are kept), left as they were when omitted. */
	queue(stats: QueueStats, depths?: readonly OriginDepth[]): void;
	/** The model's threshold, expected freshness and rates. */
	model(figures: ModelFigures): void;
	/** One build of the live report page (`GET /`). */
	reportBuilt(): void;
	/** Every metric in Prometheus's text format. */
	text(): Promise<string>;
}

/** Lateness buckets, seconds: 10 ms to one day, about three to a decade. */
export const LATENESS_BUCKETS = [0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400];

const NO_REQUEST: ReadonlySet<Reason> = new Set(['robots', 'deferred']);

/**
 * The metrics of one watch, on a registry of its own (never prom-client's global one, so
 * two watches in one process, or two tests, do not share figures).
 *
 * @example
 * const metrics = createWatchMetrics();
 * metrics.check('304', 0, false);
 * metrics.queue(await queue.stats(), [{ origin: 'https://a.example', depth: 12 }]);
 * response.setHeader('content-type', metrics.contentType).end(await metrics.text());
 */
export function createWatchMetrics(options: WatchMetricsOptions = {}): WatchMetrics {
	const origins = options.origins ?? 20;
	if (!(Number.isInteger(origins) && origins >= 0)) throw new OptionError('origins', `Expected a whole number of origins of 0 or more, got ${origins}`);
	const registry = new Registry();
	const registers = [registry];
	collectDefaultMetrics({ register: registry });
	// Gauges named like counters, which `promtool check metrics` flags; each is the sum of
	// the by-type gauge beside it (sum(nodejs_active_handles)).
	for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);

	const checks = new Counter({ name: 'revisit_checks_total', help: 'Checks judged, by verdict reason.', labelNames: ['reason'] as const, registers });
	// Every reason from the start at 0, so that rate() sees the first of each.
	for (const reason of REASONS) checks.inc({ reason }, 0);
	const requests = new Counter({ name: 'revisit_requests_total', help: 'Requests sent for checks.', registers });
	const bytes = new Counter({ name: 'revisit_bytes_total', help: 'Body bytes received on the wire.', registers });
	const changes = new Counter({ name: 'revisit_changes_total', help: 'Checks that found a change.', registers });

	const size = new Gauge({ name: 'revisit_queue_urls', help: 'URLs in the schedule.', registers });
	const backlog = new Gauge({ name: 'revisit_queue_backlog', help: 'URLs due by now and not claimed.', registers });
	const claimed = new Gauge({ name: 'revisit_queue_claimed', help: 'URLs claimed and not done.', registers });
	const hosts = new Gauge({ name: 'revisit_queue_hosts', help: 'Origins with URLs in the schedule.', registers });
	const depth = new Gauge({
		name: 'revisit_queue_depth',
		help: `URLs due by now and not claimed, for the ${origins} origins with the most.`,
		labelNames: ['origin'] as const,
		registers,
	});

	const lateness = new Histogram({
		name: 'revisit_lateness_seconds',
		help: 'Dispatch time minus due time, schedule clock.',
		buckets: LATENESS_BUCKETS,
		registers,
	});

	const reportBuilds = new Counter({
		name: 'revisit_report_builds_total',
		help: 'Builds of the live report page (GET /), at most one per page every few seconds.',
		registers,
	});

	const freshness = new Gauge({ name: 'revisit_expected_freshness', help: 'Expected fraction of watched pages fresh (0..1), from the model.', registers });
	const threshold = new Gauge({ name: 'revisit_threshold', help: 'The threshold mu each interval solves U(I) = mu for, in days.', registers });
	const target = new Gauge({ name: 'revisit_rate_target', help: 'Checks per second asked for (--rate), schedule clock.', registers });
	const dispatch = new Gauge({ name: 'revisit_dispatch_rate', help: 'Checks per second dispatched, schedule clock.', registers });

	const deliveries = options.deliveries;
	if (deliveries) {
		// Read at each scrape; a counter takes the worker's total as it is (reset, then the total added).
		const total = (counter: Counter<'target'>, of: (target: TargetFigures) => number) => {
			counter.reset();
			for (const target of deliveries()) counter.inc({ target: target.shown }, of(target));
		};
		new Gauge({
			name: 'revisit_deliveries_pending',
			help: 'Changes committed and not yet delivered, by target.',
			labelNames: ['target'] as const,
			registers,
			collect() {
				for (const target of deliveries()) this.set({ target: target.shown }, target.pending);
			},
		});
		new Counter({
			name: 'revisit_delivery_failures_total',
			help: 'Failed delivery attempts, by target.',
			labelNames: ['target'] as const,
			registers,
			collect() {
				total(this, (target) => target.failures);
			},
		});
		new Counter({
			name: 'revisit_deliveries_dropped_total',
			help: 'Deliveries dropped past --delivery-max-age, by target.',
			labelNames: ['target'] as const,
			registers,
			collect() {
				total(this, (target) => target.dropped);
			},
		});
	}

	return {
		registry,
		contentType: registry.contentType,
		check(reason, received, changed, sent = NO_REQUEST.has(reason) ? 0 : 1) {
			checks.inc({ reason });
			if (sent > 0) requests.inc(sent);
			if (received > 0) bytes.inc(received);
			if (changed) changes.inc();
		},
		late(seconds) {
			// A URL claimed a moment early (clock skew between processes) counts as on time.
			lateness.observe(Math.max(0, seconds));
		},
		queue(stats, depths) {
			size.set(stats.size);
			backlog.set(stats.backlog);
			claimed.set(stats.claimed);
			hosts.set(stats.hosts);
			if (depths === undefined) return;
			// Reset first: an origin that left the deepest N must not keep its last figure.
			depth.reset();
			for (const { origin, depth: value } of [...depths].sort((a, b) => b.depth - a.depth).slice(0, origins)) depth.set({ origin }, value);
		},
		model(figures) {
			threshold.set(figures.mu);
			freshness.set(figures.freshness);
			target.set(figures.target);
			dispatch.set(figures.rate);
		},
		reportBuilt: () => reportBuilds.inc(),
		text: () => registry.metrics(),
	};
}
