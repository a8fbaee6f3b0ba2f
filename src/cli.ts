#!/usr/bin/env node
import { runBot, runStart, runTerminalDemo, runWorker } from './app.js';
import { runSimCommand } from './cluster/sim/index.js';
import { ConfigError, loadConfig } from './config.js';
import { RedisUnavailableError } from './jobs/redis.js';

const usage = `platform-medic — repairs of the platform, from its troubleshooting guide

Usage:
  platform-medic start                       the Slack bot when Slack credentials are set, else the terminal
  platform-medic bot                         the Slack bot (HTTP receiver, or Socket Mode with SLACK_APP_TOKEN)
  platform-medic worker --cluster NAME       the worker of one cluster (runs inside that cluster)
  platform-medic terminal [--kubeconfig PATH] [--context NAME] [--broken ENTRY[:DEPTH]]
                                             the terminal adapter (simulated cluster unless a kubeconfig is given)
  platform-medic sim [--port N] [--kubeconfig PATH] [--broken ENTRY[:DEPTH]]
                                             serve the simulated cluster alone and write a kubeconfig for it

Configuration: environment variables and an optional YAML file (PLATFORM_MEDIC_CONFIG); see the README.`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new ConfigError([`${name} needs a value`]);
  return v;
}

async function main(argv: string[]): Promise<void> {
  const [command = 'start', ...args] = argv;
  switch (command) {
    case 'start':
      return runStart({});
    case 'bot':
      return runBot(loadConfig());
    case 'worker': {
      const cluster = flag(args, '--cluster');
      if (!cluster) throw new ConfigError(['worker: --cluster NAME is required (one worker per cluster)']);
      return runWorker(loadConfig(), cluster);
    }
    case 'terminal': {
      const kubeconfig = flag(args, '--kubeconfig');
      const context = flag(args, '--context');
      const broken = flag(args, '--broken');
      return runTerminalDemo({}, { ...(kubeconfig ? { kubeconfig } : {}), ...(context ? { context } : {}), ...(broken ? { broken } : {}) });
    }
    case 'sim':
      return runSimCommand(args, process.stdout);
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${usage}\n`);
      return;
    default:
      process.stderr.write(`Unknown command "${command}".\n\n${usage}\n`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof RedisUnavailableError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`platform-medic: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  process.exit(1);
});
