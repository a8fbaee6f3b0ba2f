import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { recordCliBench } from './cli.js';
import { recordDoctorBench } from './doctor.js';
import { recordFloodBench } from './flood.js';
import { benchMatching } from './matching.js';
import { writeSection } from './results.js';
import { recordSlackBench } from './slack.js';
import { recordSocketBench } from './socket.js';
import { recordSpellingBench } from './spelling.js';
import { recordValuesBench } from './values.js';

/**
 * `npm run bench`: runs the benchmarks and records them in bench/RESULTS.md, one section each.
 * `npm run bench -- flood` (or `matching`, `values`, `slack`, `socket`, `cli`, `doctor`, `spelling`) runs only the sections named.
 */

const sections = ['matching', 'values', 'slack', 'socket', 'flood', 'cli', 'doctor', 'spelling'];
const asked = process.argv.slice(2);
if (asked.includes('--help') || asked.includes('-h')) {
  console.log(`usage: npm run bench [-- SECTION …]\nRuns every section, or those named, and records each in bench/RESULTS.md. Sections: ${sections.join(', ')}.\nAlso, by hand: npx tsx bench/real.ts (the real-paste corpus), npx tsx bench/calibrate.ts (the confidence table), npx tsx bench/doctor-table.ts (docs/doctor-matrix.md).`);
  process.exit(0);
}
const unknown = asked.filter((a) => !sections.includes(a));
if (unknown.length > 0) {
  console.error(`Unknown section(s) ${unknown.join(', ')}; the sections are ${sections.join(', ')}.`);
  process.exit(2);
}
const wants = (section: string) => asked.length === 0 || asked.includes(section);
const results = join(import.meta.dirname, 'RESULTS.md');

function recordMatchingBench(): void {
  const loadBefore = loadavg()[0]!;
  const r = benchMatching();
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MB`;
  const speedOk = r.ratio >= 1 / 3;
  const latencyOk = r.p99at40k < 2;
  const body = `Run ${new Date().toISOString().slice(0, 10)} on ${availableParallelism()} cores (nproc), Node ${process.version}, 1-minute load average ${loadBefore.toFixed(2)} at the start
(other work on the machine shows up as outliers in the p99 figures). Produced by \`npm run bench\` (bench/matching.ts).

| measure | value | bar | verdict |
|---|---|---|---|
| 10 MB log, \`grep -F -i -c -f\` (${r.patterns} literal signatures, best of 5) | ${r.grepMs.toFixed(1)} ms, ${r.grepMBs.toFixed(0)} MB/s | | |
| 10 MB log, matcher (all signatures, best of 5) | ${r.matcherMs.toFixed(1)} ms, ${r.matcherMBs.toFixed(0)} MB/s | at least 1/3 of grep's speed | ${speedOk ? 'PASS' : 'FAIL'} (${r.ratio.toFixed(2)} of grep's speed) |
| pastes of 1–40 KB (1000), p50 / p99 | ${r.p50.toFixed(3)} / ${r.p99.toFixed(3)} ms | | |
| pastes of exactly 40 KB (200), p99 | ${r.p99at40k.toFixed(3)} ms | under 2 ms | ${latencyOk ? 'PASS' : 'FAIL'} |
| peak memory during the run | rss ${mb(r.peakRss)}, heap ${mb(r.peakHeap)} | | |

grep counted ${r.grepCount} matching lines. grep's time includes its process start-up and reading the
file from the page cache; the matcher's, everything from the string in memory to the ranked answer
(scan, table reading, scoring). Both ran in the same process run, on the same bytes.`;
  writeSection(results, 'Matching', body);
  console.log(body);
  if (!speedOk || !latencyOk) process.exitCode = 1;
}

if (wants('matching')) recordMatchingBench();
if (wants('values') && !recordValuesBench(results)) process.exitCode = 1;
if (wants('slack')) await recordSlackBench(results);
if (wants('socket')) await recordSocketBench(results);
if (wants('flood')) await recordFloodBench(results);
if (wants('cli') && !recordCliBench(results)) process.exitCode = 1;
if (wants('doctor') && !(await recordDoctorBench(results))) process.exitCode = 1;
if (wants('spelling') && !recordSpellingBench(results)) process.exitCode = 1;
