import { z } from 'zod';
import { keys, shapeOf, slackKeys } from './keys.js';

/** The whole configuration, derived from the declared keys, with the rules that tie keys together. */
export const configSchema = z
  .object({
    slack: z.object(shapeOf(slackKeys)),
    ...shapeOf(keys),
    /** The YAML file read, when there was one. */
    configFile: z.string().optional(),
  })
  .superRefine((c, ctx) => {
    const names = c.clusters.map((k) => k.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['clusters'], message: `cluster name "${dup}" appears twice` });
    if (c.shutdownDrainSeconds >= c.shutdownSeconds) {
      ctx.addIssue({ code: 'custom', path: ['shutdownDrainSeconds'], message: `must be less than the shutdown bound (${c.shutdownSeconds} s)` });
    }
    // With no cluster at all, that is the one problem (clusters' own minimum), not also the default's.
    if (names.length > 0 && !names.includes(c.defaultCluster)) {
      ctx.addIssue({
        code: 'custom',
        path: ['defaultCluster'],
        message: `"${c.defaultCluster}" is not one of the configured clusters (${names.join(', ')})`,
      });
    }
    const s = c.slack;
    const [bot, signing, app] = [slackKeys.botToken.env, slackKeys.signingSecret.env, slackKeys.appToken.env];
    if (s.botToken && !s.signingSecret && !s.appToken) {
      ctx.addIssue({ code: 'custom', path: ['slack', 'signingSecret'], message: `${signing} is required with ${bot} (or set ${app} for Socket Mode)` });
    }
    if (!s.botToken && (s.signingSecret || s.appToken)) {
      ctx.addIssue({ code: 'custom', path: ['slack', 'botToken'], message: `${bot} is required when Slack is configured` });
    }
  });

/** The validated, frozen configuration of a bot, worker or terminal session. */
export type Config = Readonly<z.infer<typeof configSchema>>;
