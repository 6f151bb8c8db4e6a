import type { PublicPage } from './public-host.js';

const html = (body: string): PublicPage => ({
	headers: { 'content-type': 'text/html; charset=utf-8' },
	body: `<!doctype html><html><head><title>hostile</title></head><body>${body}</body></html>`,
});
const js = (body: string): PublicPage => ({ headers: { 'content-type': 'text/javascript' }, body });

/**
 * Pages that try, as an attacker's would, to reach a service on this machine's loopback
 * (by the name `localhost`, which no check of IP literals catches) from a page rendered
 * for revisit: issue 35's findings, one way each. `/hostile` tries every request a page
 * can cause; `/escape` tries what leaves the page (a popup, WebRTC's UDP, a WebSocket).
 * Each reports to its own host at `/done` or `/escape-done` once it has tried.
 *
 * @example
 * const site = await startPublicHost(hostilePages({ internalPort: 8080, udpPort: 3478 }));
 */
export function hostilePages({ internalPort, udpPort }: { internalPort: number; udpPort: number }): Record<string, PublicPage> {
	const internal = `http://localhost:${internalPort}`;
	const workerCode = `fetch('${internal}/worker').catch(() => {}); postMessage('tried');`;
	return {
		'/hostile': html(
			`
			<link rel="stylesheet" href="${internal}/css">
			<script src="${internal}/script"></script>
			<iframe src="${internal}/iframe"></iframe>
			<iframe name="sink"></iframe>
			<form id="post" method="POST" action="${internal}/form" target="sink"><input name="stolen" value="1"></form>
			<p class="price">10 EUR</p>
			<script>
				const tries = [
					fetch('${internal}/fetch').then((r) => r.text()).catch(() => {}),
					fetch('${internal}/no-cors', { mode: 'no-cors' }).catch(() => {}),
					fetch('/redirect').catch(() => {}),
					new Promise((done) => { try { navigator.sendBeacon('${internal}/beacon', 'data'); } catch {} done(); }),
					new Promise((done) => { try { document.getElementById('post').submit(); } catch {} setTimeout(done, 300); }),
					new Promise((done) => { const w = new Worker('/worker.js'); w.onmessage = done; w.onerror = done; }),
					new Promise((done) => { const w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(workerCode)}], { type: 'text/javascript' }))); ` +
				`w.onmessage = done; w.onerror = done; }),
					new Promise((done) => { try { const w = new Worker('data:text/javascript,' + encodeURIComponent(${JSON.stringify(workerCode)})); ` +
				`w.onmessage = done; w.onerror = done; } catch { done(); } }),
				];
				Promise.race([Promise.all(tries), new Promise((done) => setTimeout(done, 3000))]).then(() => fetch('/done'));
			</script>`,
		),
		'/redirect': { status: 302, headers: { location: `${internal}/redirected` }, body: '' },
		'/worker.js': js(workerCode),
		'/done': { headers: { 'content-type': 'text/plain' }, body: 'ok' },
		'/escape': html(`
			<p class="price">11 EUR</p>
			<a id="away" href="${internal}/popup-anchor" target="_blank">away</a>
			<script>
				try { window.open('${internal}/popup'); } catch {}
				try { window.open('/popup-page'); } catch {}
				document.getElementById('away').click();
				try {
					const peer = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udpPort}' }] });
					peer.createDataChannel('x');
					peer.createOffer().then((offer) => peer.setLocalDescription(offer)).catch(() => {});
				} catch {}
				try { new WebSocket('ws://localhost:${internalPort}/socket'); } catch {}
				// Counted once it has tried (revisit waits for the .late selector): a second and a half for them to go out.
				setTimeout(() => fetch('/escape-done').finally(() => { document.body.insertAdjacentHTML('beforeend', '<p class="late">tried</p>'); }), 1500);
			</script>`),
		'/popup-page': html(`<script>setInterval(() => fetch('${internal}/popup-tick').catch(() => {}), 200);</script>`),
		'/escape-done': { headers: { 'content-type': 'text/plain' }, body: 'ok' },
	};
}
