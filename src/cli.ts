#!/usr/bin/env node
import { loadConfig } from './config.js';
import { fileReason, InputError } from './input-error.js';

const usage = `platform-medic — repairs of the platform, from its troubleshooting guide

Usage:
  platform-medic start                       the Slack bot when Slack credentials are set, else the terminal
  platform-medic bot                         the Slack bot (HTTP receiver, or Socket Mode with SLACK_APP_TOKEN)
  platform-medic worker --cluster NAME       the worker of one cluster (runs inside that cluster)
  platform-medic terminal [--cluster NAME | --kubeconfig PATH [--context NAME]] [--broken ENTRY[:DEPTH]]
                                             the terminal adapter: the simulated cluster, unless a configured
                                             cluster or a kubeconfig is chosen
  platform-medic sim [--port N] [--kubeconfig PATH] [--broken ENTRY[:DEPTH]]
                                             serve the simulated cluster alone and write a kubeconfig for it
  platform-medic match [--json] [FILE]       match an error (a file, or standard input) to the catalogue;
                                             exit 0 on a match, 1 on none, 2 on bad input
  platform-medic doctor [--json] [--cluster NAME | --kubeconfig PATH [--context C]] [--broken ENTRY[:DEPTH]]
                                             check a cluster for every symptom of the guide (read-only; a fresh
                                             simulated cluster when none is named): exit 0 none present, 1 some
                                             present, 2 bad input
  platform-medic explain ID                  print a catalogue entry
  platform-medic values check [--json] [FILE] check installer values (a values file, --set flags or a helm
                                             upgrade command; standard input without FILE): exit 0 clean,
                                             1 problems, 2 bad input; --iam-role / --s3-compatible say more
  platform-medic values upgrade --provider S3|AZURE|GCP|BUNDLED [--logs-bucket B …]
                                             print the exact upgrade command (flags mirror the Slack modal)
  platform-medic list                        list the catalogue

Configuration: environment variables and an optional YAML file (PLATFORM_MEDIC_CONFIG); see the README.`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new InputError(`${name} needs a value`);
  return v;
}

async function main(argv: string[]): Promise<void> {
  const [command = 'start', ...args] = argv;
  switch (command) {
    case 'start':
      return (await import('./app.js')).runStart({});
    case 'bot':
      return (await import('./bot.js')).runBot(loadConfig());
    case 'worker': {
      const cluster = flag(args, '--cluster');
      if (!cluster) throw new InputError('worker: --cluster NAME is required (one worker per cluster)');
      return (await import('./app.js')).runWorker(loadConfig(), cluster);
    }
    case 'terminal': {
      const cluster = flag(args, '--cluster');
      const kubeconfig = flag(args, '--kubeconfig');
      const context = flag(args, '--context');
      const broken = flag(args, '--broken');
      return (await import('./app.js')).runTerminalDemo({}, { ...(cluster ? { cluster } : {}), ...(kubeconfig ? { kubeconfig } : {}), ...(context ? { context } : {}), ...(broken ? { broken } : {}) });
    }
    case 'sim':
      return (await import('./cluster/sim/cli.js')).runSimCommand(args, process.stdout);
    case 'match':
      process.exitCode = await (await import('./commands/match-cli.js')).runMatchCommand(args, process);
      return;
    case 'doctor':
      process.exitCode = await (await import('./commands/doctor-cli.js')).runDoctorCommand(args, process);
      return;
    case 'explain':
      process.exitCode = (await import('./commands/match-cli.js')).runExplainCommand(args, process);
      return;
    case 'values':
      process.exitCode = await (await import('./commands/values-cli.js')).runValuesCommand(args, process);
      return;
    case 'list': {
      if (args.length > 0) throw new InputError(`list takes no arguments (unknown: ${args.join(' ').slice(0, 80)})`);
      const [{ listBlocks }, { blocksToText }] = await Promise.all([import('./views/slack/catalogue.js'), import('./views/text.js')]);
      process.stdout.write(`${blocksToText(listBlocks())}\n`);
      return;
    }
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

/**
 * Errors that are a person's to fix: their message says what to do, a stack trace would only hide it.
 * Known by name: each command loads only its own modules (the bot never loads the Kubernetes client),
 * so their classes are not all here to compare with.
 */
const userErrors = new Set(['ConfigError', 'RedisUnavailableError', 'KubeConfigError', 'SlackStartError']);
/** Their message is a whole answer on its own, without the program's name in front. */
const selfExplained = new Set(['ConfigError', 'RedisUnavailableError']);

function isUserError(err: unknown): boolean {
  if (err instanceof Error && userErrors.has(err.name)) return true;
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

/**
 * A reader that stops early (`… | head -1`) closes the pipe: the rest of the output has nowhere to go,
 * which is not an error. The command ends quietly with the status it would have had.
 */
function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    // After the command's own code has set process.exitCode (it is set once the command returns).
    setImmediate(() => process.exit());
  });
}

endQuietlyOnClosedPipe(process.stdout);
endQuietlyOnClosedPipe(process.stderr);

main(process.argv.slice(2)).catch((err: unknown) => {
  const message = (err as Error)?.message ?? String(err);
  // Bad input (an argument, a file that cannot be read or written): one line, exit 2.
  if (err instanceof InputError) {
    process.stderr.write(`platform-medic: ${message}\n`);
    process.exit(2);
  }
  const path = (err as { path?: unknown })?.path;
  if (fileReason(err) && typeof path === 'string') {
    process.stderr.write(`platform-medic: cannot use ${path}: ${fileReason(err)}\n`);
    process.exit(2);
  }
  if (isUserError(err)) process.stderr.write(`${selfExplained.has((err as Error).name) ? '' : 'platform-medic: '}${message}\n`);
  else if (err instanceof Error && err.constructor === Error) process.stderr.write(`platform-medic: ${message}\n`);
  else process.stderr.write(`platform-medic: ${message}\n(an unexpected error; please report it with this trace)\n${(err as Error)?.stack ?? ''}\n`);
  process.exit(1);
});
