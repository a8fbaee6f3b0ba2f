import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText } from '../fakes/slack-api.js';
import { approver, channel, startStack, workerPolicy, type Stack } from '../support/stack.js';

/**
 * Text read from the cluster is written by whoever deploys there: an image name is any string the API
 * accepts, `<!channel>` included. The bot shows it back in the thread and in the notification text of
 * the message; in both it must stay text, never a mention or a link.
 */
describe("the cluster's text in a remedy's thread", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack('cluster-text', { hideMarkers: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('shows an image name with a broadcast and a link in it escaped, in the blocks and in the notification text', async () => {
    // Given an application whose image, in the private registry, names a broadcast and a link.
    const image = 'registry.acme-corp.io/<!channel>/<https://evil.test|click>:1.4.2';
    const labels = { app: 'payments-web', 'app.kubernetes.io/managed-by': 'devtron' };
    // Deployed by the application's team, not by the worker (whose RBAC cannot create deployments).
    stack.sim.setPolicy(undefined);
    await stack.sim.kubeConfig().makeApiClient(AppsV1Api).createNamespacedDeployment({
      namespace: 'devtron-demo',
      body: { metadata: { name: 'payments-web', labels }, spec: { replicas: 1, selector: { matchLabels: { app: 'payments-web' } }, template: { metadata: { labels }, spec: { containers: [{ name: 'payments-web', image }] } } } },
    });
    stack.sim.setPolicy(workerPolicy());
    await stack.sim.break('image-pull-private-registry');

    // When its remedy (a person's checklist) has run and the doctor still sees the pull refused.
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    expect((await stack.slash('fix image-pull-private-registry')).status).toBe(200);
    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts) && m.text.includes('image-pull-private-registry')), { what: 'the root message' });
    const end = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => m.text.startsWith('⚠️ Still present')), { what: 'the end of the remedy', timeoutMs: 30_000 });

    // Then the image shows, escaped, in both.
    expect(blocksText(end.blocks)).toContain('image registry.acme-corp.io/&lt;!channel&gt;/&lt;https://evil.test|click&gt;:1.4.2');
    expect(end.text).toContain('image registry.acme-corp.io/&lt;!channel&gt;/&lt;https://evil.test|click&gt;:1.4.2');
    for (const m of stack.thread(root.ts)) {
      expect(m.text).not.toContain('<!channel>');
      expect(m.text).not.toContain('<https://evil.test');
    }
  });

  it('shows the admin password exactly as stored, whatever Slack would read as markup in it', async () => {
    // Given an admin password an administrator chose, with what mrkdwn reads as a link, an entity, code and an emoji.
    const password = 'Tr<ic>ky&amp;`pw`:x:';
    stack.sim.setPolicy(undefined);
    const core = stack.sim.kubeConfig().makeApiClient(CoreV1Api);
    const secret = await core.readNamespacedSecret({ name: 'devtron-secret', namespace: 'devtroncd' });
    await core.replaceNamespacedSecret({ name: 'devtron-secret', namespace: 'devtroncd', body: { ...secret, data: { ...secret.data, ADMIN_PASSWORD: Buffer.from(password).toString('base64') } } });
    stack.sim.setPolicy(workerPolicy());

    // When an approver asks for it.
    expect((await stack.slash('fix admin-password', approver)).status).toBe(200);
    const shown = await stack.fake.waitFor((f) => f.ephemerals(approver).find((e) => e.text.startsWith('🔑 Admin password')), { what: 'the password, privately', timeoutMs: 20_000 });

    // Then the message shows it as plain text, character for character (mrkdwn would show `Trky&` and a link).
    const plain = JSON.stringify(shown.blocks ?? []);
    expect(shown.blocks ?? []).toContainEqual({ type: 'section', text: { type: 'plain_text', text: password, emoji: false } });
    expect(plain.split(password).length - 1).toBe(1);
  });
});
