// SPDX-License-Identifier: GPL-3.0-or-later
// JavaScript peer of bench-decode: JSON.parse + unmarshall (@aws-sdk/util-dynamodb)
// on every item of the same pages. wrapNumbers keeps N as text (as Dynoscope
// does); without it 38-digit numbers throw.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const [pageDir, iterArg, nodeModules] = process.argv.slice(2);
const require = createRequire(join(nodeModules ?? join(process.cwd(), 'node_modules'), 'x.js'));
const { unmarshall } = require('@aws-sdk/util-dynamodb');
const iterations = Number(iterArg ?? 10);

const pages = readdirSync(pageDir).filter((n) => n.endsWith('.json')).sort()
  .map((n) => readFileSync(join(pageDir, n), 'utf8'));

// The SDK client base64-decodes B / BS before unmarshall sees them; do the same.
function blobs(value) {
  for (const t of Object.keys(value)) {
    const v = value[t];
    if (t === 'B') value[t] = Buffer.from(v, 'base64');
    else if (t === 'BS') value[t] = v.map((x) => Buffer.from(x, 'base64'));
    else if (t === 'M') for (const x of Object.values(v)) blobs(x);
    else if (t === 'L') for (const x of v) blobs(x);
  }
  return value;
}

function run(count) {
  let items = 0;
  let size = 0;
  for (let i = 0; i < count; i++) {
    for (const body of pages) {
      const page = JSON.parse(body);
      const decoded = page.Items.map((item) => {
        for (const v of Object.values(item)) blobs(v);
        return unmarshall(item, { wrapNumbers: true });
      });
      items += decoded.length;
      size += Buffer.byteLength(body);
    }
  }
  return [items, size];
}

run(2);
const start = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
const [items, size] = run(iterations);
const cpuUsed = process.cpuUsage(cpu0);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const cpu = (cpuUsed.user + cpuUsed.system) / 1e6;
console.log(`js pages=${pages.length} iterations=${iterations} items=${items} seconds=${seconds.toFixed(3)} ` +
  `cpu_seconds=${cpu.toFixed(3)} items_per_s=${(items / seconds).toFixed(0)} ` +
  `mb_per_s=${(size / seconds / 2 ** 20).toFixed(1)} cpu_items_per_s=${(items / cpu).toFixed(0)}`);
