/**
 * Deterministic test text for the matching benchmark: a seeded PRNG, so every run measures the same
 * bytes. Noise is klog, logrus and zap-JSON lines of a busy cluster (with the component names and
 * common words that real logs have, so context literals do fire); a few real error lines are
 * sprinkled in so the matcher has evidence to collect, as it would in a real log.
 */

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'reconcile sync controller request handled status ready volume mounted pod container image pulled started cluster ' +
  'namespace deployment replica service endpoint ingress registry secret configmap lease leader election informer cache ' +
  'watch list timeout retry backoff queue worker http grpc response latency ms bytes node kubelet scheduler metrics ' +
  'prometheus grafana argocd application health progressing synced devtron orchestrator pipeline workflow build commit'
).split(' ');

const COMPONENTS = ['devtron-7c9d8f6b5-rn4px', 'kubewatch-6d5f8b7c9-tx4lm', 'argocd-server-5d8f7b6c4-kq2zm', 'git-sensor-0', 'lens-6b7c8d9f-2pq9x', 'nats-0'];

/** Real error lines of the kinds the catalogue knows, as they appear in logs. */
const SIGNALS = [
  'time="2024-05-01T10:00:00Z" level=error msg="no token provided" component=authenticator',
  '{"level":"error","ts":1708502101.13,"caller":"git/RepositoryManager.go:204","msg":"error in updating repository","err":"exit status 128"}',
  'E0301 10:00:01.000000       1 scraper.go:149] "Failed to scrape node" err="x509: cannot validate certificate for 10.0.1.23 because it doesn\'t contain any IP SANs"',
  'time="2024-05-01T10:00:00Z" level=error msg="Failed to update datasource. Reload new version and try again"',
];

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

function noiseLine(rnd: () => number, i: number): string {
  const words = Array.from({ length: 6 + Math.floor(rnd() * 12) }, () => pick(rnd, WORDS)).join(' ');
  const ms = String(i % 1000).padStart(3, '0');
  switch (Math.floor(rnd() * 3)) {
    case 0:
      return `I0301 10:${String(i % 60).padStart(2, '0')}:00.${ms}000       1 ${pick(rnd, WORDS)}.go:${Math.floor(rnd() * 900)}] ${words}`;
    case 1:
      return `${pick(rnd, COMPONENTS)} time="2024-03-01T10:00:00.${ms}Z" level=${rnd() < 0.9 ? 'info' : 'warning'} msg="${words}" took=${Math.floor(rnd() * 900)}ms`;
    default:
      return `{"level":"info","ts":1709287200.${ms},"caller":"${pick(rnd, WORDS)}/${pick(rnd, WORDS)}.go:${Math.floor(rnd() * 900)}","msg":"${words}","id":${i}}`;
  }
}

/** About `bytes` characters of log, one real error line per `signalEvery` lines. */
export function generateLog(seed: number, bytes: number, signalEvery = 20_000): string {
  const rnd = prng(seed);
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = i % signalEvery === signalEvery - 1 ? pick(rnd, SIGNALS) : noiseLine(rnd, i);
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}
