import { describe, expect, it } from 'vitest';
import { checkValues } from '../../src/values/check.js';
import { readPaste } from '../../src/values/paste.js';
import { parseSetArgument } from '../../src/values/set-flags.js';
import { parseShell } from '../../src/values/shell.js';
import { problemsOf } from './support.js';

describe("--set flags, read as helm's strvals reads them", () => {
  it('types bare values, keeps --set-string strings, reads lists and escapes', () => {
    expect(parseSetArgument('minio.enabled=true,a.b=12,c=007,d=null', 'set')).toEqual({
      ok: true,
      assignments: [
        { path: ['minio', 'enabled'], value: true, kind: 'set' },
        { path: ['a', 'b'], value: 12, kind: 'set' },
        { path: ['c'], value: '007', kind: 'set' },
        { path: ['d'], value: null, kind: 'set' },
      ],
    });
    expect(parseSetArgument('minio.enabled=true', 'set-string')).toMatchObject({ assignments: [{ value: 'true' }] });
    expect(parseSetArgument('installer.modules={cicd,argo-cd}', 'set')).toMatchObject({ assignments: [{ path: ['installer', 'modules'], value: ['cicd', 'argo-cd'] }] });
    expect(parseSetArgument('annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size=100m', 'set')).toMatchObject({
      assignments: [{ path: ['annotations', 'nginx.ingress.kubernetes.io/proxy-body-size'], value: '100m' }],
    });
    expect(parseSetArgument('a=x\\,y', 'set')).toMatchObject({ assignments: [{ value: 'x,y' }] });
    expect(parseSetArgument('dex={"a":1,"b":[1,2]}', 'set-json')).toMatchObject({ assignments: [{ value: { a: 1, b: [1, 2] } }] });
    expect(parseSetArgument('novalue', 'set')).toMatchObject({ ok: false });
  });

  it('reads bare key=value lines as --set flags, and notes --set-file as not checkable', () => {
    const r = readPaste('configs.BLOB_STORAGE_PROVIDER=S3\nminio.enabled=false');
    expect(r).toMatchObject({ form: 'set', values: { configs: { BLOB_STORAGE_PROVIDER: 'S3' }, minio: { enabled: false } } });
    const f = checkValues('--set installer.modules={cicd} --set-file secrets.BLOB_STORAGE_GCP_CREDENTIALS_JSON=./sa.json');
    expect(f.ok && f.notes).toContain('--set-file reads ./sa.json on your machine for secrets.BLOB_STORAGE_GCP_CREDENTIALS_JSON, so that value was not checked.');
  });
});

describe('whole helm commands, read as the shell reads them', () => {
  it('follows quotes, line continuations and comments', () => {
    const script = parseShell(`# upgrade\nhelm upgrade devtron devtron/devtron-operator \\\n  --namespace "devtroncd" \\\n  --set 'secrets.AZURE_ACCOUNT_KEY=a b' --set x="it's"`);
    expect(script.commands).toHaveLength(1);
    expect(script.commands[0]!.map((w) => w.text)).toEqual(['helm', 'upgrade', 'devtron', 'devtron/devtron-operator', '--namespace', 'devtroncd', '--set', 'secrets.AZURE_ACCOUNT_KEY=a b', '--set', "x=it's"]);
  });

  it("reads Devtron's documented S3 install with keys, and the release, chart and namespace of an upgrade", () => {
    const paste = `helm repo update
helm upgrade devtron devtron/devtron-operator --namespace devtroncd \\
  -f https://raw.githubusercontent.com/devtron-labs/devtron/main/charts/devtron/devtron-bom.yaml \\
  --set installer.modules={cicd} --reuse-values \\
  --set configs.BLOB_STORAGE_PROVIDER=S3 \\
  --set configs.DEFAULT_CACHE_BUCKET=demo-s3-bucket \\
  --set configs.DEFAULT_CACHE_BUCKET_REGION=us-east-1 \\
  --set configs.DEFAULT_BUILD_LOGS_BUCKET=demo-s3-bucket \\
  --set configs.DEFAULT_CD_LOGS_BUCKET_REGION=us-east-1 \\
  --set secrets.BLOB_STORAGE_S3_ACCESS_KEY=AKIAZ7QFAKEKEYEXAMPLE`;
    const r = readPaste(paste);
    expect(r).toMatchObject({ form: 'helm', helm: { sub: 'upgrade', release: 'devtron', chart: 'devtron/devtron-operator', namespace: 'devtroncd', reuseValues: true } });
    expect(problemsOf(paste).map((p) => [p.key, p.rule, p.fix])).toEqual([['secrets.BLOB_STORAGE_S3_SECRET_KEY', '2.2 rule 2', "--set 'secrets.BLOB_STORAGE_S3_SECRET_KEY=<SECRET_KEY>'"]]);
  });

  it('reads --flag=value forms and -n, and says when the namespace is not the platform\'s', () => {
    const found = problemsOf('helm upgrade --install devtron devtron/devtron-operator -n default --reuse-values --values=https://raw.githubusercontent.com/devtron-labs/devtron/main/charts/devtron/devtron-bom.yaml --set=installer.modules={cicd}');
    expect(found.map((p) => [p.key, p.fix])).toEqual([['--namespace', '--namespace devtroncd']]);
  });

  it('notes unquoted braces with a comma, which bash expands before helm sees them', () => {
    const r = checkValues('helm upgrade devtron devtron/devtron-operator -n devtroncd --reuse-values --set installer.modules={cicd,argo-cd}');
    expect(r.ok && r.notes.some((n) => n.includes('the shell expands {a,b}'))).toBe(true);
  });

  it('checks a values file the same paste writes with a here-document', () => {
    const paste = [
      "cat > values-prod.yaml <<'EOF'",
      'configs:',
      '  BLOB_STORAGE_PROVIDER: s3',
      'EOF',
      'helm upgrade devtron devtron/devtron-operator -n devtroncd --reuse-values -f values-prod.yaml -f https://raw.githubusercontent.com/devtron-labs/devtron/main/charts/devtron/devtron-bom.yaml --set installer.modules={cicd}',
    ].join('\n');
    expect(problemsOf(paste).find((p) => p.key === 'configs.BLOB_STORAGE_PROVIDER')).toMatchObject({ fix: '--set configs.BLOB_STORAGE_PROVIDER=S3' });
  });

  it('answers bad input clearly, never with a crash', () => {
    expect(checkValues('')).toMatchObject({ ok: false });
    expect(checkValues('just: [unclosed')).toMatchObject({ ok: false, message: expect.stringContaining('not a YAML values file') });
    expect(checkValues('hello there')).toMatchObject({ ok: false });
    expect(checkValues('helm list -n devtroncd')).toMatchObject({ ok: false });
    expect(checkValues('\u0000\u0001\u0002binary')).toMatchObject({ ok: false });
    expect(checkValues('```yaml\ninstaller:\n  modules: [cicd]\n```')).toMatchObject({ ok: true, problems: [] });
  });
});
