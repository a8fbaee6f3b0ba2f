import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { podSpec, readObjects, workloadOf } from './manifests.js';

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(): { op: string; arg: string }[] {
  const text = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8').replace(/\\\n/g, ' ');
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => ({ op: l.split(/\s+/)[0]!.toUpperCase(), arg: l.slice(l.indexOf(' ') + 1).trim() }));
}

/** The runtime stage: everything after the last FROM. */
function runtimeStage() {
  const all = instructions();
  const last = all.map((i) => i.op).lastIndexOf('FROM');
  return all.slice(last);
}

describe('the Dockerfile (it cannot be built here: no Docker engine; its parts are checked instead)', () => {
  it('builds in one stage and runs from node:20-slim with production dependencies only', () => {
    const froms = instructions().filter((i) => i.op === 'FROM').map((i) => i.arg);
    expect(froms).toEqual(['node:20-slim AS build', 'node:20-slim']);
    const build = instructions().filter((i) => i.op === 'RUN').map((i) => i.arg).join('\n');
    expect(build).toMatch(/npm run build/);
    expect(build).toMatch(/npm prune --omit=dev/);
    const runtime = runtimeStage();
    // Only the pruned node_modules, dist/ and package.json come over from the build: no sources, no dev tools.
    expect(runtime.filter((i) => i.op === 'COPY' && i.arg.startsWith('--from')).map((i) => i.arg.split(/\s+/).slice(1, 2)[0])).toEqual(['/app/package.json', '/app/node_modules', '/app/dist']);
    expect(runtime.find((i) => i.op === 'WORKDIR')?.arg).toBe('/app');
    expect(runtime.find((i) => i.op === 'USER')?.arg).toBe('10001:10001');
  });

  it('carries the bundled platform manifests where the compiled step finds them (/app/manifests beside /app/dist)', () => {
    const runtime = runtimeStage();
    expect(runtime.filter((i) => i.op === 'COPY' && !i.arg.startsWith('--from')).map((i) => i.arg)).toEqual(['manifests ./manifests']);
    // dist/src/remedies/steps/manifest-bundle.js looks for manifests/index.json in its ancestors: /app/manifests.
    expect(readFileSync(new URL('../../manifests/index.json', import.meta.url), 'utf8')).toContain('"v0.6.29"');
  });

  it("starts with the manifests' commands: `node dist/src/cli.js bot` and `… worker --cluster NAME`", () => {
    const runtime = runtimeStage();
    const entrypoint = JSON.parse(runtime.find((i) => i.op === 'ENTRYPOINT')!.arg) as string[];
    const cmd = JSON.parse(runtime.find((i) => i.op === 'CMD')!.arg) as string[];
    const bot = podSpec(workloadOf(readObjects('base/bot/deployment.yaml'), 'bot')!).containers[0]!;
    const worker = podSpec(workloadOf(readObjects('base/worker/deployment.yaml'), 'worker')!).containers[0]!;
    expect(bot.command).toEqual(entrypoint);
    expect(worker.command).toEqual(entrypoint);
    expect(bot.args).toEqual(cmd);
    expect(worker.args!.slice(0, 2)).toEqual(['worker', '--cluster']);
    // The start script the package declares is the same file.
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { bin: Record<string, string> };
    expect(entrypoint[1]).toBe(pkg.bin['platform-medic']);
  });

  it('.dockerignore sends only what the build needs: no local config, secrets, tests or node_modules', () => {
    const lines = readFileSync(new URL('../../.dockerignore', import.meta.url), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    expect(lines[0]).toBe('*');
    expect(lines.slice(1).every((l) => l.startsWith('!'))).toBe(true);
    const allowed = lines.slice(1).map((l) => l.slice(1).replace(/\/(\*\*)?$/, ''));
    for (const copied of instructions().filter((i) => i.op === 'COPY' && !i.arg.startsWith('--from')).flatMap((i) => i.arg.split(/\s+/).slice(0, -1))) {
      expect(allowed, `${copied} reaches the build context`).toContain(copied.replace(/\/$/, ''));
    }
    for (const kept of ['platform-medic.yaml', 'test', 'node_modules', 'dist', '.git', 'deploy']) expect(allowed).not.toContain(kept);
  });
});
