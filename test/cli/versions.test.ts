import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../src/store/level/store.js';
import { unpackText } from '../../src/store/model/text-blob.js';
import { pageVersions, versionText } from '../../src/domain/versions/index.js';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startReceiver } from '../io/notify/receiver.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 5);

/** A page that gets a new sentence and price each edition. */
const html = (edition: number): string =>
	`<!doctype html><html><head><title>Hats</title></head><body><h1>Hats</h1><p>Our hats are warm and dry.</p>` +
	`<p>Edition ${edition}: ${['first', 'second', 'third', 'fourth', 'fifth'][edition]} words here.</p><p>Price: $${20 + edition}.00</p></body></html>`;

describe('versions through the CLI', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	let edition = 0;
	beforeEach(async () => {
		edition = 0;
		server = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html', etag: `"e${edition}"` }).end(html(edition)));
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});

	/** Sweeps the page on day `day`, with the page at `edition`; returns the text the store then keeps as its latest. */
	const sweep = async (day: number, ...flags: string[]): Promise<string | undefined> => {
		const run = await runCli(['sweep', '--store', store.dir, '-q', '--now', String(START + day * DAY), ...flags], `${server.url('/hats')}\n`);
		expect(run.status).toBe(0);
		const opened = await LevelStore.open(store.dir);
		try {
			const [record] = await opened.getMany([server.url('/hats')]);
			const [blob] = await opened.getTexts([record!.text!.hash!]);
			return blob && unpackText(blob);
		} finally {
			await opened.close();
		}
	};

	const read = async <T>(use: (opened: LevelStore) => Promise<T>): Promise<T> => {
		const opened = await LevelStore.open(store.dir);
		try {
			return await use(opened);
		} finally {
			await opened.close();
		}
	};

	it('three sweeps that find changes leave three versions, each text given back exactly', async () => {
		const texts: Array<string | undefined> = [];
		for (let day = 0; day < 3; day++) {
			edition = day;
			texts.push(await sweep(day));
			// An unchanged check the next hour: it confirms the version and writes no new one.
			await sweep(day + 1 / 24);
		}
		expect(texts[2]).toContain('Edition 2: third words here.');
		const url = server.url('/hats');
		const versions = await read((opened) => pageVersions(opened, url));
		// In hours since the first sweep (--now runs on from the time given, as a clock does).
		const hours = (at: number): number => Math.round((at - START) / 3_600_000);
		expect(
			versions.map(({ n, reason, firstSeen, lastConfirmed, etag }) => ({ n, reason, firstSeen: hours(firstSeen), lastConfirmed: hours(lastConfirmed), etag })),
		).toEqual([
			{ n: 3, reason: 'new-body', firstSeen: 48, lastConfirmed: 49, etag: '"e2"' },
			{ n: 2, reason: 'new-body', firstSeen: 24, lastConfirmed: 25, etag: '"e1"' },
			{ n: 1, reason: 'new', firstSeen: 0, lastConfirmed: 1, etag: '"e0"' },
		]);
		expect(versions[0]).toMatchObject({ added: 3, removed: 3, bytes: Buffer.byteLength(texts[2]!) });
		for (let n = 1; n <= 3; n++) expect(await read((opened) => versionText(opened, url, n))).toBe(texts[n - 1]);
	});

	it('keeps --keep-versions of them, the newest among them, and none past the newest with off', async () => {
		for (let day = 0; day < 4; day++) {
			edition = day;
			await sweep(day, '--keep-versions', '2');
		}
		const url = server.url('/hats');
		expect((await read((opened) => pageVersions(opened, url))).map((version) => version.n)).toEqual([4, 3]);
		expect(await read((opened) => versionText(opened, url, 3))).toContain('Edition 2: third');
		edition = 4;
		await sweep(5, '--keep-versions', 'off');
		// Off, the log is left as it was: no version is added, and none taken away.
		expect((await read((opened) => pageVersions(opened, url))).map((version) => version.n)).toEqual([4, 3]);
	});

	it('refuses a --keep-versions that is not a count, naming the flag', async () => {
		const run = await runCli(['sweep', '--store', store.dir, '--keep-versions', '-2'], `${server.url('/hats')}\n`);
		expect(run.status).toBe(2);
		expect(run.stderr).toContain('--keep-versions must be an integer >= 1');
	});
});

// A page whose words are written by an inline script: the script's text changes, the text a reader of the static page sees does not.
describe('a change in the bytes only (an inline script), told and kept', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	let edition = 0;
	const page = (): string =>
		`<!doctype html><html><head><title>Deals</title></head><body><h1>Deals</h1><div id="deal"></div>` +
		(`<script>document.getElementById('deal').textContent = 'Deal of the day: kettle ${['one', 'seven'][edition]}';</script><p>Fresh every day.</p>` +
			`</body></html>`);
	beforeEach(async () => {
		edition = 0;
		server = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page()));
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});

	it('the verdict and the notification say the text is the same and where the bytes moved; revisit diff and log show the change', async () => {
		const { server: receiver, received } = await startReceiver();
		try {
			const url = server.url('/deals');
			const sweep = () => runCli(['sweep', '--store', store.dir, '--ndjson', '--notify', `json://${receiver.origin.slice('http://'.length)}/hook`], `${url}\n`);
			expect((await sweep()).status).toBe(0);
			const before = Buffer.byteLength(page());
			edition = 1;
			const changed = await sweep();
			expect(changed.status).toBe(0);
			const [verdict] = ndjson(changed.stdout);
			const note = `the text is the same; the bytes changed: ${before} → ${Buffer.byteLength(page())} bytes, in the scripts`;
			expect(verdict).toMatchObject({ url, changed: true, reason: 'new-body', note });
			// The notification says it in words, in its body and as a field of its own.
			expect(received).toHaveLength(1);
			expect(received[0]!.body).toMatchObject({ url, reason: 'new-body', note, message: `${url}\nreason: new-body\n${note}` });
			// The change that was reported has its version: diff names it, and says what moved.
			const diff = await runCli(['diff', '--store', store.dir, url]);
			expect(diff.stderr).toBe('');
			expect(diff.status).toBe(1);
			expect(diff.stdout).toMatch(new RegExp(`^${url}: version 1 \\(.*\\) → version 2 \\(.*\\): ${note}\\n$`));
			const log = await runCli(['log', '--store', store.dir, '--json', url]);
			expect(ndjson(log.stdout).map(({ n, reason, added, removed, note: said }) => ({ n, reason, added, removed, note: said }))).toEqual([
				{ n: 2, reason: 'new-body', added: 0, removed: 0, note },
				{ n: 1, reason: 'new', added: 0, removed: 0, note: undefined },
			]);
			expect((await runCli(['log', '--store', store.dir, url])).stdout).toMatch(/^2 latest .* new-body +same text /m);
		} finally {
			await receiver.close();
		}
	});
});
