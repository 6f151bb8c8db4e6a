// Packs the built checkout as revisit-VERSION.tgz for installing with npm install -g, as a
// service does (docs/13-watch.md, "Running it as a service"):
//
//   npm run package               (builds first; the tarball lands in the checkout)
//   node scripts/pack.js DIR      (packs what dist/ holds, into DIR)
//
// Why not plain `npm pack`: the tarball would carry the checkout's `prepare` script (which
// builds dist/ after `npm ci`), and npm lists a tarball's `prepare` among the install
// scripts it warns about, as if it had to run, though it never runs for a tarball and the
// tarball ships dist/ built. This packs the same files (`npm pack`'s own list, from
// "files" in package.json) with a package.json that has no `prepare`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const npm = (args, cwd) => execFileSync('npm', [...args, '--ignore-scripts', '--json'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

const destination = path.resolve(process.argv[2] ?? ROOT);
if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) {
	process.stderr.write('scripts/pack.js: dist/ is not built: run npm run build first (npm run package does)\n');
	process.exit(1);
}
const [listed] = JSON.parse(npm(['pack', '--dry-run'], ROOT));
const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-pack-'));
try {
	for (const { path: file } of listed.files) {
		if (file === 'package.json') continue;
		fs.mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
		fs.copyFileSync(path.join(ROOT, file), path.join(stage, file));
		fs.chmodSync(path.join(stage, file), fs.statSync(path.join(ROOT, file)).mode);
	}
	const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	delete manifest.scripts.prepare;
	fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
	fs.mkdirSync(destination, { recursive: true });
	const [packed] = JSON.parse(npm(['pack', '--pack-destination', destination], stage));
	process.stdout.write(`${path.join(destination, packed.filename)}\n`);
} finally {
	fs.rmSync(stage, { recursive: true, force: true });
}
