// Trunk post-build hook (see Trunk.toml): minifies the app's JavaScript glue (wasm-bindgen's
// output, which Trunk ships as it is) with esbuild, as scripts/build-package.sh does for the
// package, and puts the minified file's Subresource Integrity hash in index.html in place of
// the old one. Release builds only: a debug build keeps the readable glue. Without esbuild
// (scripts/setup.sh installs it) the build goes on unminified, with a warning; under CI that
// is an error, so that the shipped size cannot grow unnoticed.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('minify-app-js: run by Trunk (TRUNK_STAGING_DIR is not set)');
if (process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const esbuild = path.join(root, 'tests/node_modules/.bin/esbuild');
if (!fs.existsSync(esbuild)) {
  console.error('[minify-app-js] no esbuild (run scripts/setup.sh): the app\'s JS is left unminified');
  process.exit(process.env.CI === 'true' ? 1 : 0);
}

const sri = (bytes) => `sha384-${crypto.createHash('sha384').update(bytes).digest('base64')}`;
const indexFile = path.join(staging, 'index.html');
let index = fs.readFileSync(indexFile, 'utf8');
const glue = fs.readdirSync(staging).filter((f) => f.endsWith('.js') && index.includes(`./${f}`));
for (const name of glue) {
  const file = path.join(staging, name);
  const before = fs.readFileSync(file);
  const after = execFileSync(esbuild, ['--minify', '--format=esm', '--log-level=error', file]);
  fs.writeFileSync(file, after);
  index = index.split(sri(before)).join(sri(after));
  console.log(`[minify-app-js] ${name}: ${before.length} → ${after.length} bytes`);
}
// Trunk gives the wasm's `<link rel=preload as=fetch>` an `integrity` too, which Chromium
// ignores for that destination, with a console warning on every load (crbug.com/981419). It
// checked nothing there: the loader's own fetch of the wasm carries none. Taken out, so that
// the console stays clean; the stylesheet's and the JS glue's are kept (those are checked).
index = index.replace(/<link\b[^>]*\bas="?fetch"?[^>]*>/g, (tag) => tag.replace(/\s+integrity=("[^"]*"|[^\s>]+)/, ''));
fs.writeFileSync(indexFile, index);
