import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { findRemedyCallbackId } from '../../src/handlers/shortcuts/index.js';
import { deployDir } from './manifests.js';

interface SlackManifest {
  features: {
    slash_commands: { command: string; url: string; usage_hint: string }[];
    shortcuts: { name: string; type: string; callback_id: string }[];
    bot_user: { display_name: string };
  };
  oauth_config: { scopes: { bot: string[]; user?: string[] } };
  settings: {
    event_subscriptions: { request_url: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url: string };
    socket_mode_enabled: boolean;
  };
}

const manifest = parseYaml(readFileSync(join(deployDir, 'slack-app-manifest.yaml'), 'utf8')) as SlackManifest;
const srcDir = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
}

/** Web API methods the code calls (`client.chat.postMessage(` → chat.postMessage). */
function webApiCalls(): string[] {
  const calls = new Set<string>();
  for (const file of sources(srcDir)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\bclient\.([a-z]+(?:\.[a-zA-Z]+)+)\(/g)) calls.add(m[1]!);
  }
  return [...calls].sort();
}

/** Slack's documented bot scope of each method (none: any token may call it). */
const scopeOfMethod: Record<string, string | null> = {
  'auth.test': null,
  'chat.postMessage': 'chat:write',
  'chat.postEphemeral': 'chat:write',
  'chat.update': 'chat:write',
  // api.slack.com/methods/chat.getPermalink: "Bot tokens: No scope required".
  'chat.getPermalink': null,
  'views.open': null,
  'usergroups.users.list': 'usergroups:read',
};
/** The scope each subscribed message event needs. */
const scopeOfEvent: Record<string, string> = { 'message.channels': 'channels:history', 'message.groups': 'groups:history', 'message.im': 'im:history' };
/** Scopes the code needs without a Web API method: commands and shortcuts, and files it downloads. */
const otherScopes = {
  commands: 'the /platform command and the "Find remedy" shortcut',
  'files:read': 'src/slack/files.ts downloads url_private with the bot token',
};

describe('deploy/slack-app-manifest.yaml', () => {
  it('asks for exactly the scopes the code uses, and no other', () => {
    const calls = webApiCalls();
    // A method the table does not know must be looked up and added, not silently ignored.
    for (const method of calls) expect(Object.keys(scopeOfMethod), `scope of ${method}`).toContain(method);
    expect(calls).toContain('chat.postMessage');
    expect(calls).toContain('usergroups.users.list');
    const needed = new Set([
      ...calls.map((m) => scopeOfMethod[m]).filter((s): s is string => Boolean(s)),
      ...manifest.settings.event_subscriptions.bot_events.map((e) => scopeOfEvent[e]!),
      ...Object.keys(otherScopes),
    ]);
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...needed].sort());
    expect(manifest.oauth_config.scopes.user).toBeUndefined();
    expect(readFileSync(join(srcDir, 'slack/files.ts'), 'utf8')).toContain('url_private');
  });

  it('declares the slash command, the "Find remedy" shortcut, interactivity and message events on /slack/events', () => {
    const [command] = manifest.features.slash_commands;
    expect(command).toMatchObject({ command: '/platform' });
    expect(command!.usage_hint).toMatch(/^help \| list \| explain <id> \| fix <id> \[cluster\]/);
    expect(manifest.features.shortcuts).toEqual([expect.objectContaining({ name: 'Find remedy', type: 'message', callback_id: findRemedyCallbackId })]);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.event_subscriptions.bot_events).toEqual(['message.channels', 'message.groups', 'message.im']);
    for (const url of [command!.url, manifest.settings.interactivity.request_url, manifest.settings.event_subscriptions.request_url]) {
      expect(new URL(url).pathname).toBe('/slack/events');
    }
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });
});
