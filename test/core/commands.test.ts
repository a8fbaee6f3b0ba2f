import { describe, expect, it } from 'vitest';
import { loadConfig, noSuchClusterText } from '../../src/config.js';
import { answerLine, type CommandAnswer, type CommandContext } from '../../src/core/index.js';
import { noSuchCluster, requestFix } from '../../src/core/fix.js';
import type { Inline, View } from '../../src/core/view.js';
import type { AuditRecord } from '../../src/jobs/audit.js';
import { plainText, toText } from '../../src/views/plain.js';
import { mrkdwn, toBlocks } from '../../src/views/slack/answer.js';

const config = loadConfig({
  env: {},
  overrides: { clusters: [{ name: 'prod-eu', kube: { source: 'simulated' } }, { name: 'staging', kube: { source: 'simulated' } }], defaultCluster: 'prod-eu' },
});

const records: AuditRecord[] = [
  { at: '2026-11-21T10:00:00.000Z', who: 'UALICE', action: 'approved', requestId: 'r1', entryId: 'build-logs', cluster: 'prod-eu' },
  { at: '2026-11-21T11:00:00.000Z', who: 'UBOB', action: 'requested', requestId: 'r2', entryId: 'git-sensor-stuck', cluster: 'staging', detail: '<!channel> look' },
];

/** The queue side as the core sees it: who approves where, and the audit trail. */
function desk(approves: Record<string, string[]>) {
  return {
    async approvableClusters(user: string) {
      return { clusters: approves[user] ?? [], ...(approves[user] ? {} : { note: 'Your approver group could not be read.' }) };
    },
    audit: {
      async latest(n: number, keep: (r: AuditRecord) => boolean = () => true) {
        return records.filter(keep).slice(0, n);
      },
    },
  } as unknown as CommandContext['desk'];
}

const ctx = (over: Partial<CommandContext> = {}): CommandContext => ({ config, desk: desk({ UALICE: ['prod-eu', 'staging'], UCAROL: ['staging'] }), user: 'UALICE', ...over });

async function view(line: string, over: Partial<CommandContext> = {}): Promise<View> {
  const answer: CommandAnswer = await answerLine(line, ctx(over));
  if (answer.kind !== 'view') throw new Error(`expected a view, got ${answer.kind}`);
  return answer.view;
}

const words = (text: Inline): string => plainText(text);

describe('the command core', () => {
  it('help: the commands and the clusters, the default named', async () => {
    const v = await view('help');
    expect(v.parts[0]).toEqual({ kind: 'heading', text: 'platform-medic' });
    const text = toText(v);
    expect(text).toContain('/platform fix <id> [cluster] [name=value …] — plan a remedy');
    expect(text).toContain('Clusters: prod-eu, staging (default prod-eu).');
  });

  it('help in the terminal says where approval and pastes happen there, not in a thread, a channel or a shortcut', async () => {
    const text = toText(await view('help', { plainText: true }));
    expect(text).toContain('/platform fix <id> [cluster] [name=value …] — plan a remedy; it asks for approval at the prompt; progress and result follow here');
    expect(text).toContain('/platform match <error text> — find the remedy for an error (or paste the error itself: a line that is no command is read as a paste)');
    expect(text).not.toContain('in the thread');
    expect(text).not.toContain('Find remedy');
    // Slack keeps its own words.
    expect(toText(await view('help'))).toContain('approvers approve it in the thread');
  });

  it('list: every entry once with its guide reference', async () => {
    const text = toText(await view('list'));
    expect(text).toContain('build-logs (guide 7.4) — Build logs not visible and build cannot be aborted');
    expect(text).toContain('Plan one with /platform fix <id> [cluster].');
  });

  it('explain: symptom, cause and each step; an unknown id gets the closest ids', async () => {
    const v = await view('explain git-sensor-stuck');
    expect(v.parts[0]).toEqual({ kind: 'heading', text: 'Latest commit not fetched; auto build not triggered' });
    expect(toText(v)).toMatch(/Symptom: .+\nCause: /);
    const unknown = await view('explain gitsensor');
    expect(words(unknown.summary)).toBe('There is no remedy gitsensor. Closest: git-sensor-stuck, git-sensor-volume-full.');
    expect(toText(unknown)).toContain('There is no remedy gitsensor in the catalogue. Closest: git-sensor-stuck');
  });

  it('match: the top entry, its evidence and the choices to plan or explain it; no match proposes no fix', async () => {
    const v = await view('match E1121 10:00:00.000000 1 server.go:1] Failed to update datasource. Reload new version and try again');
    // A platform remedy from its text alone: answers at its confidence were right less often than not on real
    // pastes, so it is offered as possible, not likely; a remedy for any product at a high confidence is likely.
    expect(words(v.summary)).toMatch(/^Possibly datasource-update-failed \(guide 7\.8\), confidence [1-4]?\d%$/);
    const likely = await view('match <html><head><title>413 Request Entity Too Large</title></head><body><center>nginx</center></body></html> from the ingress-nginx controller when uploading a chart');
    expect(words(likely.summary)).toMatch(/^Likely upload-too-large \(guide 7\.12\), confidence ([5-9]\d|100)%$/);
    const choices = v.parts.find((p) => p.kind === 'choices');
    expect(choices).toMatchObject({ id: 'match-top', choices: [{ label: 'Plan fix', command: 'fix datasource-update-failed' }, { label: 'Explain', command: 'explain datasource-update-failed' }] });
    expect(toText(v)).toContain('line 1: E1121 10:00:00.000000 1 server.go:1] Failed to update datasource.');
    const none = await view('match the coffee machine is empty');
    expect(words(none.summary)).toBe('No catalogued remedy matches this.');
    expect(none.parts.some((p) => p.kind === 'choices' && p.choices.some((c) => c.command.startsWith('fix')))).toBe(false);
  });

  it('an unknown word: help in Slack, a paste in the terminal', async () => {
    expect(words((await view('frobnicate')).summary)).toBe('Unknown command frobnicate. Try /platform help.');
    expect(words((await view('frobnicate', { plainText: true })).summary)).toBe('No catalogued remedy matches this.');
  });

  it('a mistyped command is named with the command it meant: in Slack instead of help alone, in the terminal below the paste that matched nothing', async () => {
    expect(words((await view('fx build-logs')).summary)).toBe('Unknown command fx. Did you mean /platform fix build-logs? Try /platform help.');
    expect(words((await view('stauts prod-eu')).summary)).toBe('Unknown command stauts. Did you mean /platform status prod-eu? Try /platform help.');
    // Two letters swapped is one slip, as people make it: "lsit" is list, not sim.
    expect(words((await view('lsit')).summary)).toBe('Unknown command lsit. Did you mean /platform list? Try /platform help.');
    const terminal = toText(await view('fx build-logs', { plainText: true }));
    expect(terminal).toContain('No catalogued remedy matches this.');
    expect(terminal).toContain('If you meant the command, type fix build-logs.');
    // A pasted sentence's first word is not a command mistyped ("it" is two edits from "list").
    expect(toText(await view('it fails', { plainText: true }))).not.toContain('If you meant');
    expect(words((await view('it fails')).summary)).toBe('Unknown command it. Try /platform help.');
    // A long paste is a paste, whatever its first word.
    expect(toText(await view('fx: the pipeline failed at step three\nand again at four', { plainText: true }))).not.toContain('If you meant');
  });

  it('values: a check with each corrected line as code, the upgrade as a form in Slack and a command in the terminal', async () => {
    const check = await view('values check --set installer.modules=cicd');
    expect(words(check.summary)).toBe('1 problem in these --set flags');
    expect(check.parts[1]).toMatchObject({ kind: 'text', code: '--set installer.modules={cicd}' });
    expect(await answerLine('values upgrade', ctx())).toEqual({ kind: 'upgrade-form' });
    const upgrade = await view('values upgrade --provider BUNDLED', { plainText: true });
    expect(upgrade.parts.find((p) => p.kind === 'code')).toMatchObject({ text: expect.stringContaining('--set minio.enabled=true') });
  });

  it('audit: approvers read the clusters they approve on, others are told they cannot', async () => {
    const all = await view('audit 5');
    expect(toText(all)).toContain('2026-11-21 11:00 UTC · @UBOB · requested git-sensor-stuck on staging (r2) — <!channel> look');
    // What a person wrote never becomes a Slack mention or link.
    expect(JSON.stringify(toBlocks(all))).toContain('&lt;!channel&gt;');
    const scoped = toText(await view('audit', { user: 'UCAROL' }));
    expect(scoped).toContain('Audit trail of staging (newest 1)');
    expect(scoped).not.toContain('build-logs');
    expect(words((await view('audit', { user: 'UDAVE' })).summary)).toBe('Only approvers can read the audit trail. Your approver group could not be read.');
  });

  it('fix: checked once — the entry, the cluster (one wording), the parameters — before anything is asked of the queue', async () => {
    expect(words((await view('fix build-log')).summary)).toMatch(/^There is no remedy build-log\. Closest: build-logs/);
    const cluster = await view('fix build-logs prod-us');
    expect(mrkdwn(cluster.summary)).toBe('There is no cluster `prod-us`. Configured clusters: `prod-eu`, `staging`.');
    // The same words as every other surface's (the worker's command line, the terminal's --cluster, the lifecycle).
    expect(mrkdwn(cluster.summary)).toBe(noSuchClusterText('prod-us', ['prod-eu', 'staging'], (s) => `\`${s}\``));
    expect(words(cluster.summary)).toBe(words(noSuchCluster('prod-us', config)));
    expect(words((await view('fix build-logs size=1')).summary)).toContain('build-logs takes no parameters (got size)');
    expect(await answerLine('fix build-logs staging', ctx())).toEqual({ kind: 'fix', ask: { entryId: 'build-logs', cluster: 'staging', params: {} } });
  });

  it('fix: hands a checked request to the queue side, and shows its refusal as it is', async () => {
    const asked: unknown[] = [];
    const refusing = {
      async requestFix(req: unknown) {
        asked.push(req);
        return { ok: false as const, message: '`build-logs` is already being fixed on `prod-eu` (asked by <@UBOB>). Follow that remedy\'s thread, or cancel it first.' };
      },
    } as unknown as Parameters<typeof requestFix>[0];
    const unknownCluster = await requestFix(refusing, config, { entryId: 'build-logs', cluster: 'nowhere', requestedBy: 'UALICE' });
    expect(unknownCluster.ok).toBe(false);
    expect(asked).toEqual([]);
    const refused = await requestFix(refusing, config, { entryId: 'build-logs', requestedBy: 'UALICE' });
    expect(asked).toEqual([{ entryId: 'build-logs', cluster: 'prod-eu', requestedBy: 'UALICE' }]);
    if (refused.ok) throw new Error('expected a refusal');
    expect(mrkdwn(refused.view.summary)).toBe("`build-logs` is already being fixed on `prod-eu` (asked by <@UBOB>). Follow that remedy's thread, or cancel it first.");
    expect(toText(refused.view)).toBe("build-logs is already being fixed on prod-eu (asked by @UBOB). Follow that remedy's thread, or cancel it first.");
  });
});
