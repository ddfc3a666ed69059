// Fetches the playground's browser assets (GraphiQL, React, ReactDOM) from
// the npm registry at pinned versions, copies the files the page loads into
// vendor/, and records where each came from in vendor/manifest.json: the
// package, its version, the tarball's integrity as the registry publishes it
// (sha512), and each file's sha384, which is also the page's Subresource
// Integrity value. The files are committed: the server embeds them, so a
// machine with only Go serves the playground offline.
//
//   node server/playground/assets.mjs            refresh vendor/ (make playground-assets)
//   node server/playground/assets.mjs --check    fail if vendor/ differs from npm
//   --cache DIR                                  npm cache to use (default: a temporary one)
//
// To move to another version, change it below and run `make playground-assets`.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The packages and the files of each that the page needs, with their
// licenses. The UMD builds take React and ReactDOM from globals, which is why
// GraphiQL stays on 3.x: 5.x no longer ships one.
const packages = [
  { name: 'react', version: '18.3.1', files: ['umd/react.production.min.js', 'LICENSE'] },
  { name: 'react-dom', version: '18.3.1', files: ['umd/react-dom.production.min.js', 'LICENSE'] },
  { name: 'graphiql', version: '3.9.0', files: ['graphiql.min.js', 'graphiql.min.css', 'LICENSE'] },
];

const here = dirname(fileURLToPath(import.meta.url));
const vendor = join(here, 'vendor');
const manifestPath = join(vendor, 'manifest.json');

const args = process.argv.slice(2);
const check = args.includes('--check');
const cacheAt = args.indexOf('--cache');
const work = mkdtempSync(join(tmpdir(), 'bindery-playground-'));
const cache = cacheAt >= 0 ? resolve(args[cacheAt + 1]) : join(work, 'cache');

function npm(...argv) {
  return execFileSync('npm', [...argv, '--cache', cache, '--no-fund', '--no-audit', '--loglevel', 'error'], {
    cwd: work,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

const sri = (algorithm, data) => `${algorithm}-${createHash(algorithm).update(data).digest('base64')}`;

const problems = [];
const manifest = {
  comment: 'Written by server/playground/assets.mjs (make playground-assets); checked by the playground tests. Do not edit.',
  packages: [],
};
const fetched = new Map();

try {
  for (const pkg of packages) {
    const spec = `${pkg.name}@${pkg.version}`;
    // What the registry publishes for this version...
    const dist = JSON.parse(npm('view', spec, 'dist', '--json'));
    // ...and the tarball npm fetched, which it checks against that integrity.
    const [packed] = JSON.parse(npm('pack', spec, '--json', '--pack-destination', work));
    const tarball = join(work, packed.filename);
    const integrity = sri('sha512', readFileSync(tarball));
    if (integrity !== dist.integrity || packed.integrity !== dist.integrity) {
      throw new Error(`${spec}: the tarball's integrity ${integrity} is not the registry's ${dist.integrity}`);
    }
    const out = join(work, 'x', pkg.name);
    mkdirSync(out, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', out, ...pkg.files.map((f) => `package/${f}`)]);

    const entry = { name: pkg.name, version: pkg.version, tarball: dist.tarball, integrity: dist.integrity, files: [] };
    for (const path of pkg.files) {
      const data = readFileSync(join(out, 'package', path));
      const file = `${pkg.name}/${basename(path)}`;
      fetched.set(file, data);
      entry.files.push({ path, file, size: data.length, sha384: sri('sha384', data) });
    }
    manifest.packages.push(entry);
    console.log(`${spec}: ${dist.integrity}`);
  }
  const manifestText = JSON.stringify(manifest, null, 2) + '\n';

  if (check) {
    let committed = '';
    try {
      committed = readFileSync(manifestPath, 'utf8');
    } catch (err) {
      problems.push(`vendor/manifest.json: ${err.message}`);
    }
    if (committed && committed !== manifestText) {
      problems.push('vendor/manifest.json differs from what npm serves for the pinned versions');
    }
    for (const [file, data] of fetched) {
      let have;
      try {
        have = readFileSync(join(vendor, file));
      } catch {
        problems.push(`vendor/${file} is missing`);
        continue;
      }
      if (!have.equals(data)) problems.push(`vendor/${file} differs from the npm package`);
    }
    const listed = new Set([...fetched.keys(), 'manifest.json']);
    for (const entry of readdirSync(vendor, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const rel = join(entry.parentPath ?? entry.path, entry.name).slice(vendor.length + 1);
      if (!listed.has(rel)) problems.push(`vendor/${rel} is not from any pinned package`);
    }
  } else {
    rmSync(vendor, { recursive: true, force: true });
    for (const [file, data] of fetched) {
      mkdirSync(dirname(join(vendor, file)), { recursive: true });
      writeFileSync(join(vendor, file), data);
    }
    writeFileSync(manifestPath, manifestText);
    for (const pkg of manifest.packages) {
      for (const f of pkg.files) console.log(`  vendor/${f.file}  ${f.size} bytes  ${f.sha384}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
  for (const p of problems) console.error(`playground assets: ${p}`);
  console.error('Run `make playground-assets` to refresh them from npm.');
  process.exit(1);
}
console.log(check ? 'playground assets match npm' : 'playground assets written to server/playground/vendor');
