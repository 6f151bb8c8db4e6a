import { describe, expect, it } from 'vitest';
import { WATCH_INTERVALS } from '../../src/domain/schedule/due-time.js';
import { rateLine, rateText } from '../../src/watch/say.js';

const HOUR = 3_600_000;
const bounds = { ...WATCH_INTERVALS, minMs: HOUR };

describe('what the rate means for the URLs watched', () => {
	it('names the rate as --rate takes it', () => {
		expect([rateText(120_000), rateText(20 * 86_400), rateText(100_000), rateText(86_400), rateText(50 * 24)]).toEqual([
			'5000/h',
			'20/s',
			'100000/d',
			'1/s',
			'50/h',
		]);
	});

	it('says how much of a rate the URLs can take, how often each comes round, or that they need more', () => {
		expect(rateLine(50, 50, 120_000, bounds)).toBe(
			'50 URLs, --rate 5000/h: no URL is checked more often than every 1h (--min-interval), so about 50/h of the rate can be spent now; ' +
				'the 50 new ones are checked first, then again after 1h, 2h, 4h, … while their rates are learnt',
		);
		expect(rateLine(50_000, 0, 120_000, bounds)).toBe(
			'50000 URLs, --rate 5000/h: each URL is checked about every 10h on average, more often those that change more',
		);
		expect(rateLine(10, 1, 24, bounds)).toBe(
			'10 URLs, --rate 1/h: each URL is checked about every 10h on average, more often those that change more; ' +
				'the new one is checked first, then again after 1h, 2h, 4h, … while its rate is learnt',
		);
		expect(rateLine(100_000, 0, 2400, bounds)).toBe(
			'100000 URLs, --rate 100/h: even at --max-interval 30d they take about 139/h, more than the rate: URLs will fall late',
		);
		expect(rateLine(0, 0, 2400, bounds)).toBe('0 URLs, --rate 100/h: nothing to check yet');
	});
});
