import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../src/cluster/sim/index.js';
import { startFakeSlackApi } from './fakes/slack-api.js';
import { medicArgs } from './support/medic-process.js';
import { testRedisUrl, uniquePrefix } from './support/test-redis.js';

/** Runs the command-line entry point as a user would, with only the given environment. */
function cli(args: string[], env: Record<string, string> = {}, options: { input?: string; uid?: number } = {}) {
  const r = spawnSync(process.execPath, medicArgs(...args), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PLATFORM_MEDIC_CONFIG: '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** As cli(), without blocking this process: for a command that talks to a server the test runs (the fake Slack). */
function cliWhileServing(args: string[], env: Record<string, string>): Promise<{ code: number | null; err: string }> {
  const child = spawn(process.execPath, medicArgs(...args), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PLATFORM_MEDIC_CONFIG: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const killer = setTimeout(() => child.kill(), 60_000);
  return new Promise((done) => child.on('close', (code) => done((clearTimeout(killer), { code, err }))));
}

/** Exit 2, and exactly the one line `line` on standard error (no stack, no second line). */
function badInput(r: ReturnType<typeof cli>, line: string): void {
  expect(r.err).toBe(`${line}\n`);
  expect(r.code).toBe(2);
}

/** Tests that start the command line more than once: a busy machine takes seconds per start. */
const spawning = { timeout: 120_000 };

describe('the platform-medic command', spawning, () => {
  it('says how to start Redis when it cannot reach it, and exits 1', () => {
    const r = cli(['worker', '--cluster', 'default'], { REDIS_URL: 'redis://:s3cret-pass@127.0.0.1:1' });
    expect(r.code).toBe(1);
    expect(r.err).toContain('Cannot reach Redis at redis://:***@127.0.0.1:1');
    expect(r.err).toContain('redis-server --daemonize yes');
    expect(r.err).not.toContain('s3cret-pass');
  });

  it('stops at start with one clear line when REDIS_URL selects a database index this Redis does not have', () => {
    const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    url.pathname = '/99';
    const r = cli(['worker', '--cluster', 'default'], { REDIS_URL: url.toString() });
    expect(r.code).toBe(1);
    expect(r.err).toBe(`REDIS_URL selects database 99, but the Redis at ${url.toString()} has 16 (its "databases" setting): use an index from 0 to 15.\n`);
  });

  it('stops on a wrong configuration, naming the key, without printing the secret', () => {
    const r = cli(['bot'], { SLACK_BOT_TOKEN: 'xoxb-123-very-secret' });
    expect(r.code).toBe(1);
    expect(r.err).toContain('SLACK_SIGNING_SECRET (slack.signingSecret): SLACK_SIGNING_SECRET is required with SLACK_BOT_TOKEN');
    expect(r.err).not.toContain('very-secret');
  });

  // Found by a newcomer's try: `platform-medic bot` without credentials said "createSlackBot needs SLACK_BOT_TOKEN", a function's name.
  it('bot without Slack credentials says which to set, and where the terminal is, and exits 1', () => {
    const r = cli(['bot']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      'Configuration is not valid:\n  - SLACK_BOT_TOKEN (slack.botToken): the Slack bot needs it, with SLACK_SIGNING_SECRET (HTTP) or SLACK_APP_TOKEN (Socket Mode); without Slack, npm start (or platform-medic terminal) opens the terminal adapter\n',
    );
  });

  it('names the configured clusters when asked for a worker of an unknown one', () => {
    const r = cli(['worker', '--cluster', 'prod-us']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('There is no cluster "prod-us". Configured clusters: "default".');
  });

  it('prints its usage, and rejects an unknown command with exit code 2', () => {
    expect(cli(['--help']).out).toContain('platform-medic worker --cluster NAME');
    // Bad input is one line, as on every subcommand: the commands and where the usage is, not the whole usage.
    badInput(cli(['frobnicate']), 'Unknown command "frobnicate". The commands: start, bot, worker, terminal, sim, match, doctor, explain, values, list, gen-rbac; platform-medic --help shows how to use them.');
    badInput(cli(['lsit']), 'Unknown command "lsit". Did you mean "list"? platform-medic --help shows how to use the commands.');
  });

  it('prints its version, as a newcomer first asks it (it was an unknown command)', () => {
    const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect(cli(['--version'])).toMatchObject({ code: 0, out: `platform-medic ${version}\n`, err: '' });
    expect(cli(['version'])).toMatchObject({ code: 0, out: `platform-medic ${version}\n` });
    badInput(cli(['--version', 'x']), 'platform-medic: --version takes no arguments (unknown: x)');
  });
});

describe('platform-medic match and explain', spawning, () => {
  it('prints exactly one JSON object with the verdict, the entry, its guide ref and the evidence lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'medic-match-'));
    const file = join(dir, 'paste.log');
    writeFileSync(file, 'I1121 starting\nE1121 10:00:00.000000 1 server.go:1] Failed to update datasource. Reload new version and try again\n');
    const r = cli(['match', '--json', file]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { verdict: string; matches: { id: string; ref: string; title: string; confidence: number; evidence: { line: number; text: string }[] }[] };
    expect(out.verdict).toBe('match');
    expect(out.matches[0]).toMatchObject({ id: 'datasource-update-failed', ref: '7.8', evidence: [{ line: 2, text: expect.stringContaining('Failed to update datasource') }] });
    expect(out.matches[0]!.confidence).toBeGreaterThan(0);
    expect(out.matches[0]!.confidence).toBeLessThanOrEqual(1);
    expect(Object.keys(out).sort()).toEqual(['matches', 'verdict']);
  });

  it('reads standard input, and exits 1 with an empty list on no match', () => {
    const r = spawnSync(process.execPath, medicArgs('match', '--json'), { input: 'Killed: OOMKilled container app', encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ verdict: 'no-match', nearest: [], matches: [] });
  });

  it("says no match when the paste shows the guide's remedy in place and the error persisting, naming the entry and the line", () => {
    const paste = 'I have set nginx.ingress.kubernetes.io/proxy-body-size: 200m on the ingress and the upload still fails with 413 Request Entity Too Large';
    const json = spawnSync(process.execPath, medicArgs('match', '--json'), { input: paste, encoding: 'utf8' });
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'no-match', note: 'applied', nearest: ['upload-too-large'], matches: [] });
    const text = spawnSync(process.execPath, medicArgs('match'), { input: paste, encoding: 'utf8' });
    expect(text.status).toBe(1);
    expect(text.stdout).toContain("no match (applied): the guide's remedy for upload-too-large (guide 7.12) appears to be applied already");
    expect(text.stdout).toContain('line 1:');
  });

  it("says no match when the person asks for another way than the guide's remedy, naming the entry and the line", () => {
    const paste = "I don't want to use --kubelet-insecure-tls in production.\nmetrics-server: x509: cannot validate certificate for 10.0.0.5 because it doesn't contain any IP SANs";
    const json = spawnSync(process.execPath, medicArgs('match', '--json'), { input: paste, encoding: 'utf8' });
    expect(json.status).toBe(1);
    const answer = JSON.parse(json.stdout);
    expect(answer).toMatchObject({ verdict: 'no-match', note: 'declined', matches: [], tried: { id: 'metrics-server-tls' } });
    expect(answer.tried.evidence[0]).toEqual({ line: 1, text: "I don't want to use --kubelet-insecure-tls in production." });
    const text = spawnSync(process.execPath, medicArgs('match'), { input: paste, encoding: 'utf8' });
    expect(text.stdout).toContain("no match (declined): you ask for another way than the guide's remedy for metrics-server-tls (guide 7.15); the guide has no other, no fix proposed");
  });

  it('--json names the entry tried and the lines that show it, as the text does, secrets redacted', () => {
    const paste = 'metrics-server: x509: cannot validate certificate for 10.0.0.5 because it doesn\'t contain any IP SANs\nargs:\n- --kubelet-insecure-tls --token=abcd1234abcd1234abcd1234';
    const json = spawnSync(process.execPath, medicArgs('match', '--json'), { input: paste, encoding: 'utf8' });
    expect(json.status).toBe(1);
    const answer = JSON.parse(json.stdout);
    expect(answer).toMatchObject({ verdict: 'no-match', note: 'applied', nearest: ['metrics-server-tls'], matches: [], tried: { id: 'metrics-server-tls', ref: '7.15' } });
    expect(answer.tried.evidence).toContainEqual({ line: 3, text: '- --kubelet-insecure-tls --token=[redacted]' });
    expect(json.stdout).not.toContain('abcd1234');
  });

  // Found by a newcomer's try: `list` and `explain` on the command line said "Plan one with /platform fix …", a Slack
  // command, to someone at a shell.
  it('list and explain say what to type to plan a fix from where the reader is: the terminal first, Slack named as Slack', () => {
    const list = cli(['list']);
    expect(list.code).toBe(0);
    expect(list.out).toContain('  Plan one with "fix <id> [cluster]" in the terminal (npm start), or "/platform fix <id> [cluster]" in Slack.\n');
    const explain = cli(['explain', 'dashboards-missing']);
    expect(explain.code).toBe(0);
    const fix = 'fix dashboards-missing metricsStore=http://prometheus-server.monitoring.svc:80';
    expect(explain.out).toContain(`  Plan it with "${fix}" in the terminal (npm start), or "/platform ${fix}" in Slack.\n`);
    expect(`${list.out}${explain.out}`).not.toMatch(/with \/platform/u);
  });

  it('refuses a missing file and an unknown flag with exit code 2', () => {
    expect(cli(['match', '/nonexistent/x.log']).err).toContain('cannot read /nonexistent/x.log: no such file');
    expect(cli(['match', '--yaml']).code).toBe(2);
  });

  it('explains an entry, and answers an unknown id with the closest ones', () => {
    expect(cli(['explain', 'git-sensor-stuck']).out).toContain('Delete pod git-sensor-0 so that its stateful set starts it again');
    const r = cli(['explain', 'gitsensor']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Closest: git-sensor-stuck');
    // An id of blanks is no id: the usage line, not "There is no remedy    ." (a newcomer's try).
    const blank = cli(['explain', '   ']);
    expect(blank.code).toBe(2);
    expect(blank.err).toBe('usage: platform-medic explain ID   (see platform-medic list)\n');
  });
});

describe('starting the bot', spawning, () => {
  const appTokenPage = 'the app\'s "Basic Information" page → App-Level Tokens';
  const generate = `generate one on ${appTokenPage} with the scope connections:write and put it in SLACK_APP_TOKEN.`;

  it.each([
    // No refusal injected: the fake itself refuses an app-level token it does not know.
    [undefined, `it is not a valid app-level token (a typo, or a token of another app): copy the xapp-… token of ${appTokenPage}, or ${generate}`],
    ['invalid_auth', `it is not a valid app-level token (a typo, or a token of another app): copy the xapp-… token of ${appTokenPage}, or ${generate}`],
    ['not_allowed_token_type', `Socket Mode needs an app-level token (xapp-…), not a bot or user token: ${generate}`],
    ['account_inactive', `its app or workspace is no longer active (the app deleted, or the workspace deactivated): check the app at https://api.slack.com/apps, then ${generate}`],
    ['token_revoked', `the token was revoked: ${generate}`],
  ])('Socket Mode: Slack refusing SLACK_APP_TOKEN (%s) stops start-up with one line naming it and its fix, exit 1 as for the bot token', async (refusal, fix) => {
    const fake = await startFakeSlackApi({ botToken: 'xoxb-123' });
    try {
      if (refusal) fake.failNext('apps.connections.open', refusal);
      const r = await cliWhileServing(['start'], { SLACK_API_URL: fake.apiUrl, SLACK_BOT_TOKEN: 'xoxb-123', SLACK_APP_TOKEN: 'xapp-1-abc-secretpart', REDIS_URL: testRedisUrl, PLATFORM_MEDIC_QUEUE_PREFIX: uniquePrefix('app-token') });
      expect(r.err).toBe(`platform-medic: Slack refused SLACK_APP_TOKEN (${refusal ?? 'invalid_auth'}): ${fix}\n`);
      expect(r.code).toBe(1);
      expect(fake.calls('apps.connections.open')).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });


  it('stops with a clear message when Slack cannot be reached to check the token', () => {
    const r = cli(['bot'], { SLACK_BOT_TOKEN: 'xoxb-1-2-secretpart', SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef0123456789', SLACK_API_URL: 'http://127.0.0.1:9/api/' });
    expect(r.code).toBe(1);
    expect(r.err).toContain("Cannot reach Slack's Web API at http://127.0.0.1:9/api/ to check the bot token");
    expect(r.err).not.toContain('secretpart');
  });
});

describe('exit codes: bad input is 2 with one line, on every subcommand', spawning, () => {
  const dir = mkdtempSync(join(tmpdir(), 'medic-exit-'));
  const folder = join(dir, 'a-directory');
  mkdirSync(folder);
  const locked = join(dir, 'locked.log');
  writeFileSync(locked, 'E1121 Failed to update datasource. Reload new version and try again\n');
  chmodSync(locked, 0o000);
  // root reads a mode-000 file anyway: read it as nobody, as a user without the right would.
  const asUser = process.getuid?.() === 0 ? { uid: 65534 } : {};

  it.each([
    [['match'], 'platform-medic match'],
    [['values', 'check'], 'platform-medic values check'],
  ])('%j: a directory, an unreadable file and a missing file are exit 2, naming the file and the reason', (command, prefix) => {
    badInput(cli([...command, folder]), `${prefix}: cannot read ${folder}: it is a directory`);
    badInput(cli([...command, locked], {}, asUser), `${prefix}: cannot read ${locked}: permission denied`);
    badInput(cli([...command, join(dir, 'missing.log')]), `${prefix}: cannot read ${join(dir, 'missing.log')}: no such file`);
  });

  it.each([
    [['match'], 'platform-medic match'],
    [['values', 'check'], 'platform-medic values check'],
  ])('%j: a file name with control characters and a right-to-left mark is named escaped, as the kubeconfig is', (command, prefix) => {
    // A name from a directory listing (`match logs/*`) is anyone's text: it must not colour, retitle or reorder the terminal.
    const named = join(dir, 'build\u001b[31m\u001b]0;owned\u0007\u202egol.txt');
    const shown = join(dir, 'build\\x1b[31m\\x1b]0;owned\\x07\\u202egol.txt');
    badInput(cli([...command, named]), `${prefix}: cannot read ${shown}: no such file`);
    mkdirSync(`${named}.d`, { recursive: true });
    badInput(cli([...command, `${named}.d`]), `${prefix}: cannot read ${shown}.d: it is a directory`);
  });

  it('empty input is exit 2 "nothing to read" for match and values check alike, from a file or standard input', () => {
    const empty = join(dir, 'empty.log');
    writeFileSync(empty, '');
    badInput(cli(['match', empty]), 'platform-medic match: nothing to read: the input is empty');
    badInput(cli(['match'], {}, { input: '' }), 'platform-medic match: nothing to read: the input is empty');
    badInput(cli(['values', 'check'], {}, { input: ' \n\n' }), 'platform-medic values check: nothing to read: the input is empty');
  });

  it('binary input is exit 2 "binary input: not text" for match and values check', () => {
    const binary = join(dir, 'core.bin');
    writeFileSync(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x3e, 0x00]));
    badInput(cli(['match', binary]), 'platform-medic match: binary input: not text');
    badInput(cli(['values', 'check', binary]), 'platform-medic values check: binary input: not text');
  });

  it('says by how much a file is over the 10 MB it reads when MB would round it to the limit', () => {
    const over = join(dir, 'just-over.log');
    writeFileSync(over, Buffer.alloc(10 * 1048576 + 1, 0x61));
    badInput(cli(['match', over]), `platform-medic match: ${over} is 10,485,761 bytes, over the 10,485,760; match reads up to 10 MB`);
  });

  it("reads a log that Windows PowerShell 5 wrote (UTF-16 with its byte-order mark) as text, not as binary", () => {
    const paste = 'E0101 12:00:00 client intended to send too large body: 52428800 bytes\r\n413 Request Entity Too Large from ingress-nginx\r\n';
    const le = join(dir, 'ps5.log');
    writeFileSync(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(paste, 'utf16le')]));
    const r = cli(['match', le, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).matches[0].id).toBe('upload-too-large');
  });

  // Found by a newcomer's try: the terminal took --kubeconfig and dropped --cluster without a word.
  it('a cluster named twice (--cluster and --kubeconfig) is exit 2 for the terminal, as for the doctor', () => {
    badInput(cli(['terminal', '--cluster', 'simulated', '--kubeconfig', join(dir, 'any-kubeconfig')], {}, { input: 'quit\n' }), 'platform-medic: --cluster and --kubeconfig/--context name a cluster twice; use one of them');
  });

  it('a --context the kubeconfig lacks is exit 2 for doctor and terminal, naming the contexts it has', () => {
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: prod, context: {cluster: c, user: u}}]\ncurrent-context: prod\n',
    );
    for (const command of ['doctor', 'terminal']) {
      badInput(cli([command, '--kubeconfig', kubeconfig, '--context', 'staging'], {}, { input: 'quit\n' }), `platform-medic: There is no context "staging" in ${kubeconfig} (contexts: prod).`);
    }
  });

  // Found by a newcomer's try: the terminal on a kubeconfig called its cluster `local`, and the README never said so.
  it('the terminal on a --kubeconfig names its cluster local, as the README says', () => {
    const kubeconfig = join(dir, 'kubeconfig-local');
    writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: prod, context: {cluster: c, user: u}}]\ncurrent-context: prod\n',
    );
    const r = cli(['terminal', '--kubeconfig', kubeconfig], {}, { input: 'quit\n' });
    expect(r.out).toContain('platform-medic terminal — cluster local.');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain("With `--kubeconfig PATH` (or `--context NAME` alone) the session's cluster is named `local`");
  });

  // Found by a newcomer's try: `cluster` on a configured cluster named "the default kubeconfig", not the cluster's own file.
  it("the terminal's cluster command names the kubeconfig the cluster was read from: a configured cluster's, or --kubeconfig", () => {
    const kubeconfig = join(dir, 'kubeconfig-lab');
    writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: prod, context: {cluster: c, user: u}}]\ncurrent-context: prod\n',
    );
    const config = join(dir, 'lab.yaml');
    writeFileSync(config, `clusters:\n  - name: lab\n    kube: { source: kubeconfig, path: ${kubeconfig} }\n`);
    const configured = cli(['terminal', '--cluster', 'lab'], { PLATFORM_MEDIC_CONFIG: config }, { input: 'cluster\nquit\n' });
    expect(configured.out).toContain(`Cluster lab, from the kubeconfig ${kubeconfig} (context prod): https://127.0.0.1:9.`);
    const flagged = cli(['terminal', '--kubeconfig', kubeconfig], {}, { input: 'cluster\nquit\n' });
    expect(flagged.out).toContain(`Cluster local, from the kubeconfig ${kubeconfig} (context prod): https://127.0.0.1:9.`);
  });

  // Found by a newcomer's try: a --kubeconfig file that is no kubeconfig (a values file given by mistake) was answered
  // "No kubeconfig found (KUBECONFIG, ~/.kube/config) … or give --kubeconfig PATH", the flag just given.
  it('a --kubeconfig file that names no cluster says what the file lacks, for doctor and terminal', () => {
    const values = join(dir, 'values-not-kubeconfig.yaml');
    writeFileSync(values, 'installer:\n  modules: [cicd]\n');
    const noCurrent = join(dir, 'kubeconfig-no-current');
    writeFileSync(
      noCurrent,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: prod, context: {cluster: c, user: u}}, {name: lab, context: {cluster: c, user: u}}]\n',
    );
    for (const command of ['doctor', 'terminal']) {
      badInput(cli([command, '--kubeconfig', values], {}, { input: 'quit\n' }), `platform-medic: The kubeconfig ${values} names no cluster: it has no contexts (is it a kubeconfig?).`);
      badInput(cli([command, '--kubeconfig', noCurrent], {}, { input: 'quit\n' }), `platform-medic: The kubeconfig ${noCurrent} names no cluster: it sets no current-context; choose one of its contexts (prod, lab) with --context NAME.`);
    }
    // A configured cluster's file is named with the cluster and its key, and chosen in the configuration.
    const config = join(dir, 'values-as-kube.yaml');
    writeFileSync(config, `clusters:\n  - name: lab\n    kube: { source: kubeconfig, path: ${noCurrent} }\n`);
    badInput(
      cli(['doctor', '--cluster', 'lab'], { PLATFORM_MEDIC_CONFIG: config }),
      `platform-medic: Cluster "lab" (its kube.path in the configuration): the kubeconfig ${noCurrent} names no cluster: it sets no current-context; choose one of its contexts (prod, lab) with kube.context.`,
    );
  });

  // Found by a newcomer's try: `doctor --cluster` with a configuration that is not valid exited 1, which for the doctor
  // says "a symptom is present": a script paging on 1 paged for a typo in the file.
  it('doctor with a configuration that is not valid is exit 2, on one line, not 1 (a symptom present)', () => {
    const config = join(dir, 'typo.yaml');
    writeFileSync(config, 'aprovers: [U1]\nclusters:\n  - name: lab\n    kube: { source: simulated }\n');
    badInput(cli(['doctor', '--cluster', 'lab'], { PLATFORM_MEDIC_CONFIG: config }), `platform-medic doctor: the configuration is not valid: ${config} has an unknown key "aprovers"; did you mean "approvers"?`);
  });

  // Found by a newcomer's try: a configured cluster's missing kubeconfig was named without the cluster or its key.
  it("a configured cluster's missing kubeconfig names the cluster and its kube.path, for doctor and terminal", () => {
    const config = join(dir, 'gone.yaml');
    const gone = join(dir, 'no-such-kubeconfig.yaml');
    writeFileSync(config, `clusters:\n  - name: lab\n    kube: { source: kubeconfig, path: ${gone} }\n`);
    for (const command of ['doctor', 'terminal']) {
      badInput(cli([command, '--cluster', 'lab'], { PLATFORM_MEDIC_CONFIG: config }, { input: 'quit\n' }), `platform-medic: Cluster "lab" (its kube.path in the configuration): the kubeconfig ${gone} does not exist.`);
    }
  });

  // Found by a newcomer's try: with no kubeconfig at all, --context named client-node's made-up context "loaded-context".
  it('--context with no kubeconfig anywhere says none was found, for doctor and terminal', () => {
    const home = mkdtempSync(join(tmpdir(), 'medic-home-'));
    for (const command of ['doctor', 'terminal']) {
      badInput(
        cli([command, '--context', 'simulated'], { HOME: home }, { input: 'quit\n' }),
        "platform-medic: No kubeconfig found (KUBECONFIG, ~/.kube/config) and not running inside a cluster; configure the cluster's `kube` (see the README), or give --kubeconfig PATH.",
      );
    }
  });

  // Found by a newcomer's try: `worker --cluster default` said "or give --kubeconfig PATH", which the worker refuses as an unknown flag.
  it("a configured cluster with no kubeconfig anywhere is told how to give it one, not a flag its command does not take", () => {
    const home = mkdtempSync(join(tmpdir(), 'medic-home-'));
    for (const command of ['worker', 'doctor']) {
      const r = cli([command, '--cluster', 'default'], { HOME: home });
      expect(r.err).toBe(
        'platform-medic: Cluster "default" (its kube in the configuration): no kubeconfig found (KUBECONFIG, ~/.kube/config) and not running inside a cluster; set KUBECONFIG, or give the cluster its kubeconfig in the configuration: kube: { source: kubeconfig, path: ~/.kube/config } (see the README, "Cluster keys").\n',
      );
      // The worker cannot start (1); the doctor could tell nothing of the cluster (3), which is not "a symptom is present" (1).
      expect(r.code).toBe(command === 'doctor' ? 3 : 1);
    }
  });

  // Found by a newcomer's try: a taken --port said only "listen failed (EADDRINUSE)".
  it('sim on a --port already in use is exit 2, saying what to do instead', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      badInput(cli(['sim', '--port', String(port), '--kubeconfig', join(dir, 'sim-taken')]), `platform-medic: --port ${port}: 127.0.0.1:${port} is already in use; choose another port, or leave out --port for a free one`);
    } finally {
      taken.close();
    }
  });

  // Found by a newcomer's try: a --host that is no address of this machine ended sim with Node's "Unhandled 'error' event" and its trace.
  it('sim on a --host it cannot listen on is exit 2, one line saying what to give instead', () => {
    badInput(
      cli(['sim', '--host', '999.1.1.1', '--kubeconfig', join(dir, 'sim-host')]),
      'platform-medic: --host 999.1.1.1: no such address (the name does not resolve); use 127.0.0.1 (the default), 0.0.0.0 for every interface, or another address of this machine',
    );
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
    badInput(
      cli(['sim', '--host', '192.0.2.1', '--kubeconfig', join(dir, 'sim-host')]),
      'platform-medic: --host 192.0.2.1: not an address of this machine; use 127.0.0.1 (the default), 0.0.0.0 for every interface, or another address of this machine',
    );
  });

  it('a kubeconfig that is a directory is exit 2 for terminal and sim', () => {
    badInput(cli(['terminal', '--kubeconfig', folder]), `platform-medic: The kubeconfig ${folder} cannot be read: it is a directory`);
    badInput(cli(['sim', '--kubeconfig', folder]), `platform-medic: cannot write the kubeconfig ${folder}: it is a directory`);
  });

  it('unknown arguments are exit 2 for list, sim and worker', () => {
    badInput(cli(['list', '--all']), 'platform-medic: list takes no arguments (unknown: --all)');
    expect(cli(['sim', '--frobnicate']).code).toBe(2);
    expect(cli(['worker', '--cluster']).code).toBe(2);
  });
});

describe('unknown flags are refused with the closest known one, on every subcommand', spawning, () => {
  it('a typo in the terminal\'s --kubeconfig does not start the simulated cluster', () => {
    const r = cli(['terminal', '--kubconfig', join(process.env.HOME ?? '/tmp', '.kube/config')], {}, { input: 'quit\n' });
    badInput(r, 'platform-medic: terminal: unknown flag --kubconfig; did you mean --kubeconfig?');
    expect(r.out).toBe('');
  });

  it.each([
    [['start', '--verbose'], 'platform-medic: start takes no arguments (unknown: --verbose)'],
    [['bot', '--port', '3000'], 'platform-medic: bot takes no arguments (unknown: --port 3000)'],
    [['worker', '--clutser', 'prod-eu'], 'platform-medic: worker: unknown flag --clutser; did you mean --cluster?'],
    [['terminal', '--brokn', 'build-logs'], 'platform-medic: terminal: unknown flag --brokn; did you mean --broken?'],
    [['terminal', '--frobnicate'], 'platform-medic: terminal: unknown flag --frobnicate (flags: --cluster, --kubeconfig, --context, --broken)'],
    [['sim', '--prot', '8080'], 'platform-medic: sim: unknown flag --prot; did you mean --port?'],
    [['match', '--jsn'], 'platform-medic: match: unknown flag --jsn; did you mean --json?'],
    [['explain', '--json', 'build-logs'], 'platform-medic: explain takes no flags (unknown: --json)'],
    [['values', 'check', '--iam-rol'], 'platform-medic values check: unknown flag --iam-rol; did you mean --iam-role?'],
    [['values', 'upgrade', '--provider', 'S3', '--logs-bucke', 'b'], 'platform-medic values upgrade: unknown flag --logs-bucke; did you mean --logs-bucket?'],
    [['list', '--all'], 'platform-medic: list takes no arguments (unknown: --all)'],
    // Found by a newcomer's try: the second value won silently, on another cluster or broken state than the first.
    [['terminal', '--broken', 'build-logs', '--broken', 'git-sensor-stuck'], 'platform-medic: terminal: --broken is given twice (build-logs, then git-sensor-stuck); give it once'],
    [['doctor', '--cluster=simulated', '--cluster', 'default'], 'platform-medic: doctor: --cluster is given twice (simulated, then default); give it once'],
    [['sim', '--port', '8080', '--port', '8081'], 'platform-medic: sim: --port is given twice (8080, then 8081); give it once'],
  ])('%j: exit 2, one line', (args, line) => {
    badInput(cli(args), line);
  });

  it('a mistyped command is answered with the closest one', () => {
    badInput(cli(['mach', 'x.log']), 'Unknown command "mach". Did you mean "match"? platform-medic --help shows how to use the commands.');
  });
});

describe('the simulated cluster has one name', spawning, () => {
  it('the terminal answers an unknown --cluster with the clusters it can use, the simulated one by the name the session gives it', () => {
    badInput(cli(['terminal', '--cluster', 'prod-eu']), 'platform-medic: --cluster: There is no cluster "prod-eu". Configured clusters: "simulated", "default". Or use --kubeconfig PATH.');
  });

  it('--broken is refused with a real cluster rather than ignored', () => {
    badInput(cli(['terminal', '--kubeconfig', '/nonexistent/config', '--broken', 'build-logs']), 'platform-medic: --broken breaks the simulated cluster; it cannot be combined with --kubeconfig or --context');
  });

  it.each([
    // Found by a newcomer's try: a misspelt entry got the list of 23 entries to search, where every other misspelling gets the closest.
    [['terminal', '--broken', 'buildlogs'], 'platform-medic: --broken: the simulated cluster cannot break "buildlogs"; did you mean build-logs?'],
    [['doctor', '--broken', 'git-sensor-stuk'], 'platform-medic: --broken: the simulated cluster cannot break "git-sensor-stuk"; did you mean git-sensor-stuck?'],
    // Found by a newcomer's try: the guide's number, which fix and explain take, got the list of 23 entries.
    [['terminal', '--broken', '7.4'], 'platform-medic: --broken: the simulated cluster cannot break "7.4"; it takes the entry\'s id, not its guide number: platform-medic explain 7.4 names it'],
    [['terminal', '--broken', 'build-logs:zzz'], 'platform-medic: --broken build-logs:zzz: build-logs breaks as "watcher" or "broker", not "zzz"'],
    [['sim', '--broken', 'build-logs:zzz'], 'platform-medic: --broken build-logs:zzz: build-logs breaks as "watcher" or "broker", not "zzz"'],
    [['doctor', '--broken', 'build-logs:'], 'platform-medic: --broken build-logs:: build-logs breaks as "watcher" or "broker", not ""'],
    [['terminal', '--broken', 'sso-login:zzz'], 'platform-medic: --broken sso-login:zzz: sso-login breaks one way only; use --broken sso-login'],
    [['sim', '--broken', 'sso-login:broker'], 'platform-medic: --broken sso-login:broker: sso-login breaks one way only; use --broken sso-login'],
    // Found by a newcomer's try: these were accepted and answered "no symptom present".
    [['doctor', '--broken', 'admin-password-reset'], 'platform-medic: --broken admin-password-reset: the doctor cannot see this entry from the cluster (it shows in the browser); try it in the terminal: npm run terminal -- --broken admin-password-reset'],
    [['doctor', '--broken', 'upgrade-cannot-patch-database'], 'platform-medic: --broken upgrade-cannot-patch-database: the doctor cannot see this entry from the cluster (it shows on the workstation that runs the upgrade); try it in the terminal: npm run terminal -- --broken upgrade-cannot-patch-database'],
    [
      ['doctor', '--broken', 'chart-repo-tls-handshake'],
      "platform-medic: --broken chart-repo-tls-handshake: the simulated cluster only moves the installer's version for it, which the doctor does not judge; try it in the terminal: npm run terminal -- --broken chart-repo-tls-handshake",
    ],
  ])('--broken %j: a depth the entry does not have is bad input before anything starts, never ignored', (args, line) => {
    badInput(cli(args), line);
  });

  it('the kubeconfig of the simulated cluster names its cluster and context "simulated"', async () => {
    const sim = await startSimulatedCluster();
    try {
      const kc = sim.kubeConfig();
      expect([kc.getCurrentContext(), kc.getCurrentCluster()?.name]).toEqual(['simulated', 'simulated']);
    } finally {
      await sim.close();
    }
  });
});

describe('a reader that closes early (`| head -1`)', spawning, () => {
  /** Runs the CLI with its standard output closed by the reader before anything is written. */
  function withClosedOutput(args: string[]): Promise<{ code: number | null; err: string }> {
    const child = spawn(process.execPath, medicArgs(...args), {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PLATFORM_MEDIC_CONFIG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    return new Promise((done) => child.on('close', (code) => done({ code, err })));
  }

  it('ends quietly with the normal status: no EPIPE, no stack', async () => {
    const list = await withClosedOutput(['list']);
    expect(list.err).toBe('');
    expect(list.code).toBe(0);
    const file = join(mkdtempSync(join(tmpdir(), 'medic-epipe-')), 'paste.log');
    writeFileSync(file, 'Killed: OOMKilled container app\n');
    const match = await withClosedOutput(['match', file]);
    expect(match.err).toBe('');
    expect(match.code).toBe(1);
  });
});
