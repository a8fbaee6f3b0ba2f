import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { appearedView, clearedView, foldedView, restlessView, returnedView, settledView, startedView } from '../../src/core/doctor-watch.js';
import type { Finding } from '../../src/doctor/index.js';
import { slackMessage } from '../../src/views/slack/answer.js';
import { LIMITS, blocksText } from '../fakes/slack-api.js';
import { blockKitErrors } from '../fakes/slack/block-kit-limits.js';

const present = (id: string): Finding => {
  const e = catalogue.find((x) => x.id === id)!;
  return { id, ref: e.ref, title: e.title, state: 'present', evidence: [{ object: `job/devtroncd/${id}-<b>`, detail: '0/1 completions since 09:12 <!channel>' }] };
};

describe("the scheduled doctor's messages in Slack", () => {
  it('a symptom newly present: title, guide reference, evidence escaped, Plan fix and Snooze naming the entry and the cluster', () => {
    const m = slackMessage(appearedView(present('install-jobs-failed'), 'prod-eu'));
    expect(m.text).toBe(`New on prod-eu: ${catalogue.find((e) => e.id === 'install-jobs-failed')!.title} (install-jobs-failed)`);
    const text = blocksText(m.blocks);
    expect(text).toContain('`job/devtroncd/install-jobs-failed-&lt;b&gt;` 0/1 completions since 09:12 &lt;!channel&gt;');
    expect(text).not.toContain('<!channel>');
    const value = JSON.stringify(JSON.stringify({ e: 'install-jobs-failed', c: 'prod-eu' }));
    expect(JSON.stringify(m.blocks)).toContain(`"action_id":"match-plan-fix","text":{"type":"plain_text","text":"Plan fix","emoji":true},"value":${value}`);
    expect(JSON.stringify(m.blocks)).toContain(`"action_id":"doctor-snooze","text":{"type":"plain_text","text":"Snooze 24 h","emoji":true},"value":${value}`);
  });

  it('a watch without a record lists every symptom of the catalogue present within Slack\'s block limit, the rest by name', () => {
    const all = catalogue.map((e) => present(e.id));
    const m = slackMessage(startedView(all, 'prod-eu', { everyMs: 600_000, detailed: 100 }));
    expect(blockKitErrors(m.blocks, LIMITS.blocksPerMessage)).toEqual([]);
    const text = blocksText(m.blocks);
    expect(text).toContain('watches* `prod-eu` every 10 min and posts here only what changes');
    expect(text).toContain(`so the ${all.length} symptoms present now are listed here once, not posted again:`);
    expect(text).toContain(`And ${all.length - 10} more: \`${all[10]!.id}\``);
    expect(text).toContain('`/platform doctor prod-eu` shows them with their evidence.');
  });

  it('symptoms past the budget are named in one message that says why and where to see them; a clearing says when and by which remedy', () => {
    const folded = blocksText(slackMessage(foldedView([present('build-logs'), present('sso-login')], 'prod-eu', 5)).blocks);
    expect(folded).toContain('🩺 *2 more symptoms* newly present in `prod-eu`: `build-logs`, `sso-login`.');
    expect(folded).toContain('at most 5 new symptoms an hour here. `/platform doctor prod-eu` shows them all');
    const cleared = slackMessage(clearedView({ id: 'build-logs', title: 'Build logs' }, 'prod-eu', new Date('2026-11-22T14:02:33Z'), { requestId: 'rabc123', requestedBy: 'U0ASKER' }));
    expect(cleared.text).toBe('✅ Cleared at 14:02 UTC, after remedy `rabc123` by <@U0ASKER>: *Build logs* (`build-logs`) is no longer present in `prod-eu`.');
    expect(slackMessage(clearedView({ id: 'build-logs', title: 'Build logs' }, 'prod-eu', new Date('2026-11-22T14:02:33Z'))).text).toBe('✅ Cleared at 14:02 UTC: *Build logs* (`build-logs`) is no longer present in `prod-eu`.');
  });

  it('a symptom back, one that keeps changing and one that settled: said in its thread with the time, its evidence when present, and what follows', () => {
    const f = present('build-logs');
    const back = slackMessage(returnedView(f, 'prod-eu', new Date('2026-11-22T14:20:05Z')));
    expect(back.text).toBe(`⚠️ Present again at 14:20 UTC: *${f.title}* (\`build-logs\`) in \`prod-eu\`.`);
    expect(blocksText(back.blocks)).toContain('`job/devtroncd/build-logs-&lt;b&gt;` 0/1 completions since 09:12 &lt;!channel&gt;');
    const restless = blocksText(slackMessage(restlessView(f, 'prod-eu', f, new Date('2026-11-22T14:20:05Z'), 3_600_000, 3)).blocks);
    expect(restless).toContain(`🔁 *${f.title}* (\`build-logs\`) keeps changing in \`prod-eu\`: present again at 14:20 UTC, after 3 changes said here within the hour.`);
    expect(restless).toContain('`job/devtroncd/build-logs-&lt;b&gt;`');
    expect(restless).toContain('says nothing more about it in this thread until it stays the same for 1 h, then once how it settled. `/platform doctor prod-eu` shows it now.');
    expect(blocksText(slackMessage(restlessView(f, 'prod-eu', undefined, new Date('2026-11-22T14:20:05Z'), 7_200_000, 3)).blocks)).toContain('cleared at 14:20 UTC, after 3 changes');
    expect(slackMessage(settledView(f, 'prod-eu', true, new Date('2026-11-22T14:20:05Z'), 8)).text).toBe(`⚠️ Steady: *${f.title}* (\`build-logs\`) has been present in \`prod-eu\` since 14:20 UTC (8 changes not said here before that); its changes are said here again.`);
    expect(slackMessage(settledView(f, 'prod-eu', false, new Date('2026-11-22T14:20:05Z'), 0)).text).toBe(`✅ Steady: *${f.title}* (\`build-logs\`) has been cleared in \`prod-eu\` since 14:20 UTC; should it return, it gets a new post.`);
  });
});
