import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, hasSlackCredentials, loadConfig } from '../src/config.js';

const noFile = join(tmpdir(), 'platform-medic-no-such-dir', 'none.yaml');

function load(env: Record<string, string>, yaml?: string) {
  if (yaml === undefined) return loadConfig({ env });
  const dir = mkdtempSync(join(tmpdir(), 'medic-config-'));
  const file = join(dir, 'platform-medic.yaml');
  writeFileSync(file, yaml);
  return loadConfig({ env, file });
}

function problems(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('given nothing, runs the terminal on one cluster with the guide defaults of a standard install', () => {
    const c = loadConfig({ env: { PLATFORM_MEDIC_CONFIG: '' }, file: undefined });
    expect(hasSlackCredentials(c)).toBe(false);
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.defaultCluster).toBe('default');
    expect(c.clusters[0]).toMatchObject({
      platformNamespace: 'devtroncd',
      ciNamespace: 'devtron-ci',
      platformSecret: 'devtron-secret',
      mainPodLabel: 'app=devtron',
      eventWatcherLabel: 'app=kubewatch',
      brokerPods: ['devtron-nats-0', 'devtron-stan-0'],
      gitSensorPod: 'git-sensor-0',
      dashboardUrl: 'http://devtron-grafana.devtroncd/grafana',
    });
  });

  it('is frozen, deeply', () => {
    const c = load({});
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.clusters[0]!.brokerPods)).toBe(true);
    expect(() => {
      (c as { redisUrl: string }).redisUrl = 'x';
    }).toThrow();
  });

  it('names the missing key when a bot token comes without a signing secret or app token', () => {
    const msg = problems(() => load({ SLACK_BOT_TOKEN: 'xoxb-1-2-abc' }));
    expect(msg).toContain('SLACK_SIGNING_SECRET');
  });

  it('names the wrong key and what is expected, and never prints the secret value', () => {
    const secret = 'not-a-hex-secret-but-still-secret-value';
    const msg = problems(() => load({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: secret, REDIS_URL: 'http://nope' }));
    expect(msg).toContain('SLACK_SIGNING_SECRET (slack.signingSecret)');
    expect(msg).toContain('REDIS_URL (redisUrl): a redis:// or rediss:// URL');
    expect(msg).not.toContain(secret);
  });

  it.each([
    ['abc', 'got 3 characters'],
    ['abcdef0123456789abcdef', 'got 22 characters'],
    ['abcdef0123456789abcdef0123456789\n', 'got 33 characters'],
    ['s3cretvalue-s3cretvalue-s3cretva', 'got 32 characters, not all of them hex'],
  ])('refuses a signing secret that is not Slack\'s 32 hex characters (%j), saying what is expected and where the app shows it, never the value', (secret, got) => {
    const msg = problems(() => load({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: secret }));
    expect(msg.split('\n')).toContain(
      `  - SLACK_SIGNING_SECRET (slack.signingSecret): 32 hex characters (0-9, a-f), the Signing Secret under App Credentials on the app's "Basic Information" page; ${got}`,
    );
    expect(msg).not.toContain(secret.trim());
  });

  it.each(['http://127.0.0.1:6399', 'http://127.0.0.1:6399/', 'https://slack.com/api/auth.test', 'https://slack.com/api/?team=T1', 'ftp://slack.com/api/', 'slack.com/api/'])(
    'refuses SLACK_API_URL %s, which is not a Web API base URL ending with /api/ (its calls would miss the Web API), saying the form',
    (url) => {
      const msg = problems(() => load({ SLACK_API_URL: url }));
      expect(msg).toBe(
        `Configuration is not valid:\n  - SLACK_API_URL (slack.apiUrl): the Web API's base URL: http or https, ending with /api/ as Slack's own https://slack.com/api/ does (a proxy's: https://proxy.example.com/slack/api/) (got "${url}")`,
      );
    },
  );

  it('takes a SLACK_API_URL ending with /api/ as it is, and adds the final / to one ending with /api', () => {
    expect(load({ SLACK_API_URL: 'http://127.0.0.1:6399/api/' }).slack.apiUrl).toBe('http://127.0.0.1:6399/api/');
    expect(load({ SLACK_API_URL: 'https://proxy.example.com/slack/api' }).slack.apiUrl).toBe('https://proxy.example.com/slack/api/');
  });

  it('rejects an approver that is not a Slack user id, naming the variable and the value', () => {
    expect(problems(() => load({ PLATFORM_MEDIC_APPROVERS: 'U0123ABC,alice' }))).toContain(
      'PLATFORM_MEDIC_APPROVERS (approvers.1): a Slack user id such as U012ABCDEF (got "alice")',
    );
  });

  it('names the file and key of a wrong cluster, without a second error about the default cluster', () => {
    const msg = problems(() => load({}, 'clusters:\n  - nam: prod\n'));
    expect(msg).toMatch(/platform-medic\.yaml: clusters\[0\]\.name: /);
    expect(msg).toMatch(/platform-medic\.yaml: clusters\[0\] has an unknown key "nam"; did you mean "name"\?$/m);
    expect(msg).not.toContain('PLATFORM_MEDIC_DEFAULT_CLUSTER');
  });

  it('expands ~ in a kubeconfig path as a shell would', () => {
    const c = load({}, 'clusters:\n  - name: prod\n    kube: { source: kubeconfig, path: ~/.kube/config }\n');
    expect(c.clusters[0]!.kube).toEqual({ source: 'kubeconfig', path: join(homedir(), '.kube/config') });
  });

  it('reads clusters and approvers from the YAML file, with per-cluster names', () => {
    const c = load(
      { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef0123456789' },
      'approvers: [U0APPROVER]\nclusters:\n  - name: prod-eu\n    platformNamespace: platform\n    kube: { source: in-cluster }\n  - name: staging\n',
    );
    expect(hasSlackCredentials(c)).toBe(true);
    expect(c.approvers).toEqual(['U0APPROVER']);
    expect(c.defaultCluster).toBe('prod-eu');
    expect(c.clusters.map((k) => [k.name, k.platformNamespace, k.kube.source])).toEqual([
      ['prod-eu', 'platform', 'in-cluster'],
      ['staging', 'devtroncd', 'default'],
    ]);
  });

  it('rejects unknown keys, duplicate clusters and a default cluster that does not exist', () => {
    expect(problems(() => load({}, 'redisURL: redis://x\n'))).toMatch(/platform-medic\.yaml has an unknown key "redisURL"; did you mean "redisUrl"\?$/m);
    expect(problems(() => load({}, 'clusters:\n  - name: a\n  - name: a\n'))).toContain('cluster name "a" appears twice');
    expect(problems(() => load({ PLATFORM_MEDIC_DEFAULT_CLUSTER: 'prod' }, 'clusters:\n  - name: staging\n'))).toContain(
      'PLATFORM_MEDIC_DEFAULT_CLUSTER (defaultCluster): "prod" is not one of the configured clusters (staging)',
    );
  });

  it('rejects a misspelt key inside a cluster, its approval, its doctor or its kube source, instead of taking the default silently', () => {
    // A typo such as platfromNamespace left the worker's RBAC and every remedy on the default namespace.
    // Each is named by the cluster's place in the list and its name, with the key meant when one is close.
    expect(problems(() => load({}, 'clusters:\n  - name: prod\n    platfromNamespace: x\n'))).toContain('platform-medic.yaml: clusters[0] (name "prod") has an unknown key "platfromNamespace"; did you mean "platformNamespace"?');
    expect(problems(() => load({}, 'clusters:\n  - name: prod\n    approval:\n      aprovers: [U012ABCDEF]\n'))).toContain('platform-medic.yaml: clusters[0].approval (cluster "prod") has an unknown key "aprovers"; did you mean "approvers"?');
    expect(problems(() => load({}, 'clusters:\n  - name: prod\n    doctor:\n      chanel: C012ABCDEF\n'))).toContain('platform-medic.yaml: clusters[0].doctor (cluster "prod") has an unknown key "chanel"; did you mean "channel"?');
    expect(problems(() => load({}, 'clusters:\n  - name: prod\n    kube:\n      source: kubeconfig\n      path: /k\n      contxt: prod\n'))).toContain('platform-medic.yaml: clusters[0].kube (cluster "prod") has an unknown key "contxt"; did you mean "context"?');
    // No key of the cluster is near: none is proposed; a key only another kube source takes is not proposed either.
    expect(problems(() => load({}, 'clusters:\n  - name: staging\n  - name: prod\n    foo: 1\n'))).toMatch(/platform-medic\.yaml: clusters\[1\] \(name "prod"\) has an unknown key "foo"$/m);
    expect(problems(() => load({}, 'clusters:\n  - name: prod\n    kube:\n      source: in-cluster\n      contxt: prod\n'))).toMatch(/clusters\[0\]\.kube \(cluster "prod"\) has an unknown key "contxt"$/m);
  });

  it("refuses a cluster's names that Kubernetes would refuse, saying its rule, instead of failing every call later", () => {
    // Found by a newcomer's try: `platformNamespace: Devtron_CD` passed, and every remedy's first call then failed.
    const msg = problems(() =>
      load(
        {},
        'clusters:\n  - name: prod\n    platformNamespace: Devtron_CD\n    platformSecret: devtron secret\n    mainPodLabel: devtron\n    gitSensorLabel: app=git sensor\n    databaseContainer: postgres.db\n    dashboardPasswordKey: GRAFANA PASSWORD\n',
      ),
    );
    expect(msg).toContain('clusters[0].platformNamespace (cluster "prod"): not a namespace\'s name: a lowercase RFC 1123 label of at most 63 characters (lower case letters, digits and \'-\', starting and ending with a letter or digit)');
    expect(msg).toContain('clusters[0].platformSecret (cluster "prod"): not an object\'s name: a lowercase RFC 1123 subdomain of at most 253 characters');
    expect(msg).toContain('clusters[0].mainPodLabel (cluster "prod"): not a label as key=value (e.g. app=devtron)');
    expect(msg).toContain('clusters[0].gitSensorLabel (cluster "prod"): not a label as key=value');
    expect(msg).toContain('clusters[0].databaseContainer (cluster "prod"): not a container\'s name: a lowercase RFC 1123 label');
    expect(msg).toContain('clusters[0].dashboardPasswordKey (cluster "prod"): not a key of a Secret\'s data');
    // The standard install's names and a prefixed label pass.
    expect(load({}, 'clusters:\n  - name: prod\n    dexServerLabel: app.kubernetes.io/name=argocd-dex-server\n    brokerPods: [devtron-nats-0]\n').clusters[0]!.dexServerLabel).toBe('app.kubernetes.io/name=argocd-dex-server');
  });

  it('says an empty list of clusters once, without blaming a default cluster nobody set', () => {
    // Found by a newcomer's try: `clusters: []` also said PLATFORM_MEDIC_DEFAULT_CLUSTER's "default" is not configured.
    const msg = problems(() => load({}, 'clusters: []\n'));
    expect(msg).toContain('clusters: must have at least 1 item');
    expect(msg).not.toContain('defaultCluster');
  });

  it('names the file and key when the file set the wrong value, the variable when a variable did', () => {
    // Found by a newcomer's try: a wrong value in the file was blamed on a variable nobody had set.
    expect(problems(() => load({}, 'approvalExpiresMinutes: -5\n'))).toMatch(/platform-medic\.yaml: approvalExpiresMinutes: must be more than 0 \(got "-5"\)/);
    expect(problems(() => load({}, 'approvalExpiresMinutes: -5\n'))).not.toContain('PLATFORM_MEDIC_APPROVAL_EXPIRES_MINUTES');
    expect(problems(() => load({ PLATFORM_MEDIC_APPROVAL_EXPIRES_MINUTES: '-5' }))).toContain('PLATFORM_MEDIC_APPROVAL_EXPIRES_MINUTES (approvalExpiresMinutes): must be more than 0 (got "-5")');
    expect(problems(() => load({}, 'defaultCluster: prod-us\nclusters:\n  - name: staging\n'))).toMatch(/platform-medic\.yaml: defaultCluster: "prod-us" is not one of the configured clusters/);
    // Found by a newcomer's try: the value the rule's own words quote was quoted again after them.
    expect(problems(() => load({ PLATFORM_MEDIC_DEFAULT_CLUSTER: 'nope' }))).toMatch(/PLATFORM_MEDIC_DEFAULT_CLUSTER \(defaultCluster\): "nope" is not one of the configured clusters \(default\)$/m);
  });

  it('tells every problem at once — a variable, a key of the file, a key inside a cluster — not one per try', () => {
    const told = problems(() => load({ PLATFORM_MEDIC_MAX_FILE_BYTES: 'ten' }, 'redisUrl: 12\nshutdownSecnds: 5\nclusters:\n  - name: prod\n    platfromNamespace: x\n'));
    expect(told).toContain('PLATFORM_MEDIC_MAX_FILE_BYTES (maxFileBytes): expected a number (got "ten")');
    expect(told).toContain('redisUrl: expected text');
    expect(told).toContain('has an unknown key "shutdownSecnds"; did you mean "shutdownSeconds"?');
    expect(told).toContain('clusters[0] (name "prod") has an unknown key "platfromNamespace"; did you mean "platformNamespace"?');
  });

  it('gives paste answers a budget per person and per channel, and an age past which they are dropped', () => {
    expect(load({})).toMatchObject({ pasteAnswersPerUserPerMinute: 5, pasteAnswersPerChannelPerMinute: 20, pasteAnswerMaxAgeSeconds: 30 });
    expect(load({ PLATFORM_MEDIC_PASTE_ANSWERS_PER_USER_PER_MINUTE: '3' }, 'pasteAnswersPerChannelPerMinute: 12\npasteAnswerMaxAgeSeconds: 10\n')).toMatchObject({
      pasteAnswersPerUserPerMinute: 3,
      pasteAnswersPerChannelPerMinute: 12,
      pasteAnswerMaxAgeSeconds: 10,
    });
    expect(problems(() => load({ PLATFORM_MEDIC_PASTE_ANSWERS_PER_CHANNEL_PER_MINUTE: '0' }))).toContain('PLATFORM_MEDIC_PASTE_ANSWERS_PER_CHANNEL_PER_MINUTE (pasteAnswersPerChannelPerMinute): ');
    expect(problems(() => load({ PLATFORM_MEDIC_PASTE_ANSWER_MAX_AGE_SECONDS: 'soon' }))).toContain('PLATFORM_MEDIC_PASTE_ANSWER_MAX_AGE_SECONDS (pasteAnswerMaxAgeSeconds): expected a number (got "soon")');
  });

  it("says what a key of the file takes in the variables' words, not the schema library's", () => {
    // Found by a newcomer's try: `port: abc` in the file said "Invalid input: expected number, received string",
    // where PORT=abc says "PORT (port): expected a number (got \"abc\")".
    const told = problems(() =>
      load({}, 'port: abc\napprovers: U012ABCDEF\ntwoPersonRule: "yes"\nclusters:\n  - platformNamespace: x\n  - name: b\n    brokerPods: devtron-nats-0\n    approval: { expiresMinutes: 0 }\n'),
    );
    expect(told).toContain('platform-medic.yaml: port: expected a number (got "abc")');
    expect(told).toContain('platform-medic.yaml: approvers: expected a list, such as [a, b] (got "U012ABCDEF")');
    expect(told).toContain('platform-medic.yaml: twoPersonRule: expected true or false (got "yes")');
    expect(told).toContain('platform-medic.yaml: clusters[0].name: missing: it is required');
    expect(told).toContain('platform-medic.yaml: clusters[1].brokerPods (cluster "b"): expected a list, such as [a, b] (got "devtron-nats-0")');
    expect(told).toContain('platform-medic.yaml: clusters[1].approval.expiresMinutes (cluster "b"): must be more than 0 (got "0")');
    expect(told).not.toMatch(/Invalid input|Too small|received/);
    expect(problems(() => load({}, '- a\n'))).toContain('platform-medic.yaml: (top level): expected a mapping of keys (got a list)');
  });

  it('quotes a wrong value back with a secret in it hidden and its control characters escaped, from the file and from a variable', () => {
    // A bot token pasted into the wrong key is quoted in the start-up log; a name with an escape sequence would act on the terminal.
    const token = 'xoxb-1234567890-abcdefghijklmnop';
    const told = problems(() => load({ PORT: token }, `approvers: [${token}]\nclusters:\n  - name: "prod\\u001b[31m"\n    kube: { source: simulated }\n`));
    expect(told).not.toContain('abcdefghijklmnop');
    expect(told).toContain('platform-medic.yaml: approvers[0]: a Slack user id such as U012ABCDEF (got "[redacted]")');
    expect(told).toContain('PORT (port): expected a number (got "[redacted]")');
    expect(told).not.toContain('\u001b');
    expect(told).toContain('(got "prod\\u001b[31m")');
  });

  it('says when an explicitly named config file is missing or not YAML', () => {
    expect(problems(() => loadConfig({ env: {}, file: noFile }))).toContain('does not exist');
    expect(problems(() => load({}, 'clusters: [\n'))).toContain('is not valid YAML');
    // The parser's first line names the place; the snippet it announces with a colon is not printed, nor the colon.
    expect(problems(() => load({}, 'clusters: [\n'))).toMatch(/is not valid YAML: .* at line 2, column 1$/m);
  });
});
