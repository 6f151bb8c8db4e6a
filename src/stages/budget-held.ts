import { ranksBeforeBy, TIER_OF, TIER_RANK, type BudgetCandidate, type PickTier } from '../domain/schedule/pick.js';
import type { Task } from '../domain/task/types.js';
import { SlotPlaces } from '../base/util/slot-heap.js';

/** How a held URL ranked for the budget: what `revisit due` prints of it. */
export interface Rank {
	tier: PickTier;
	/** ψ, in days of freshness; Infinity for the `verify` tier. */
	value: number;
	/** Changes per day, as estimated. */
	rate: number;
	/** Its last check (epoch ms). */
	lastChecked: number;
}

/** What a held task keeps in columns of its own (or drops: its record, its credit, its skip); anything else goes in its `extra`. */
const COLUMNS: ReadonlySet<string> = new Set(['line', 'input', 'url', 'origin', 'record', 'creditReturned', 'skip']);

/**
 * The known URLs a budget holds, one row (a slot) each, kept as columns: what ranks a URL
 * (tier, value, place in the input) and what gives its task back (URL, origin, line) in
 * typed arrays and arrays of shared strings, so a held URL costs ~100 bytes and its URL
 * string rather than the ~650 its task, candidate and heap entries took (bench/BUDGET.md).
 * A task's less common fields (`lastmod`, `source`, `announced`...) are kept as they came,
 * in a small object of its own, only where it has any.
 *
 * @example
 * const held = new HeldUrls(100);
 * const slot = held.add(task, candidateOf(task.record, task.origin!, {}, now), 0, undefined);
 * held.task(slot) // { line, input, url, origin } as the task came, without its record
 */
export class HeldUrls {
	/** Where each slot stands in the heap of all held URLs, and in its origin's heap. */
	readonly inAll = new SlotPlaces();
	readonly inHost = new SlotPlaces();
	// Rows of slots let go, to be taken again before a new one is made.
	readonly #free: number[] = [];
	readonly #limit: number;
	#capacity = 0;
	#next = 0;
	#url: Array<string | undefined> = [];
	#origin: Array<string | undefined> = [];
	#extra: Array<Partial<Task> | undefined> = [];
	#tier = new Uint8Array(0);
	#value = new Float64Array(0);
	#index = new Float64Array(0);
	#line = new Float64Array(0);
	#rate = new Float64Array(0);
	#lastChecked = new Float64Array(0);
	/** Verification bound (epoch ms), NaN where there is none. */
	#bound = new Float64Array(0);

	/** `limit`: the most slots held at once, if known (room is made up to it, not past it, while it holds). */
	constructor(limit = Infinity) {
		this.#limit = limit;
	}

	/** Whether slot `a` ranks below `b` (let go first): for the heaps, which put the worst on top. */
	readonly worse = (a: number, b: number): boolean =>
		ranksBeforeBy(this.#tier[b]!, this.#value[b]!, this.#index[b]!, this.#tier[a]!, this.#value[a]!, this.#index[a]!);

	/** Holds a task ranked by `candidate` at place `index`, and returns its slot. */
	add(task: Task, candidate: BudgetCandidate, index: number, bound: number | undefined): number {
		const slot = this.#free.pop() ?? this.#make();
		const url = task.url!;
		this.#url[slot] = url;
		this.#origin[slot] = task.origin;
		this.#extra[slot] = extraOf(task);
		this.#tier[slot] = TIER_RANK[candidate.tier];
		this.#value[slot] = candidate.value;
		this.#index[slot] = index;
		this.#line[slot] = task.line;
		this.#rate[slot] = candidate.rate ?? Number.NaN;
		this.#lastChecked[slot] = task.record?.lastChecked ?? Number.NaN;
		this.#bound[slot] = bound ?? Number.NaN;
		return slot;
	}

	/** The task held in `slot` as it came, without its record and credit. */
	task(slot: number): Task {
		const url = this.#url[slot]!;
		const task: Task = { line: this.#line[slot]!, input: url, url, origin: this.#origin[slot]! };
		const extra = this.#extra[slot];
		return extra ? Object.assign(task, extra) : task;
	}

	origin(slot: number): string {
		return this.#origin[slot]!;
	}

	url(slot: number): string {
		return this.#url[slot]!;
	}

	/** Its place among the held, in input order. */
	index(slot: number): number {
		return this.#index[slot]!;
	}

	/** Its verification bound, NaN where it has none. */
	bound(slot: number): number {
		return this.#bound[slot]!;
	}

	rank(slot: number): Rank {
		return { tier: TIER_OF[this.#tier[slot]!]!, value: this.#value[slot]!, rate: this.#rate[slot]!, lastChecked: this.#lastChecked[slot]! };
	}

	/** Lets go of `slot`: its strings are no longer held, and the row is taken again next. */
	free(slot: number): void {
		this.#url[slot] = undefined;
		this.#origin[slot] = undefined;
		this.#extra[slot] = undefined;
		this.#free.push(slot);
	}

	#make(): number {
		if (this.#next === this.#capacity) this.#grow(Math.max(this.#capacity + 1, Math.min(this.#capacity * 2 || 64, this.#limit)));
		const slot = this.#next++;
		this.#url.push(undefined);
		this.#origin.push(undefined);
		this.#extra.push(undefined);
		return slot;
	}

	#grow(capacity: number): void {
		const wider = <T extends Float64Array | Uint8Array>(from: T, to: T): T => {
			to.set(from);
			return to;
		};
		this.#tier = wider(this.#tier, new Uint8Array(capacity));
		this.#value = wider(this.#value, new Float64Array(capacity));
		this.#index = wider(this.#index, new Float64Array(capacity));
		this.#line = wider(this.#line, new Float64Array(capacity));
		this.#rate = wider(this.#rate, new Float64Array(capacity));
		this.#lastChecked = wider(this.#lastChecked, new Float64Array(capacity));
		this.#bound = wider(this.#bound, new Float64Array(capacity));
		this.inAll.grow(capacity);
		this.inHost.grow(capacity);
		this.#capacity = capacity;
	}
}

/** The fields of `task` that have no column, with its input where that is not its URL; undefined when there are none, as for most. */
function extraOf(task: Task): Partial<Task> | undefined {
	let extra: Record<string, unknown> | undefined;
	for (const key in task) {
		if (COLUMNS.has(key)) continue;
		const value = (task as unknown as Record<string, unknown>)[key];
		if (value !== undefined) (extra ??= {})[key] = value;
	}
	if (task.input !== task.url) (extra ??= {}).input = task.input;
	return extra as Partial<Task> | undefined;
}
