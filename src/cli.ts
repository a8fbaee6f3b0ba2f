#!/usr/bin/env node
import { parseFlags } from './cli-flags.js';
import { InputError, toUserError } from './errors.js';
import { closestWord } from './spelling.js';
import { visible } from './views/visible.js';

// Each command imports what it needs when it runs: `match` or `explain` must not pay for Bolt, the
// Kubernetes client, BullMQ or the configuration's schema (bench/cli.ts holds them to 4x a bare start).

const usage = `platform-medic — repairs of the platform, from its troubleshooting guide

Usage:
  platform-medic start                       the Slack bot when Slack credentials are set, else the terminal
  platform-medic bot                         the Slack bot (HTTP receiver, or Socket Mode with SLACK_APP_TOKEN)
  platform-medic worker --cluster NAME       the worker of one cluster (runs inside that cluster)
  platform-medic terminal [--cluster NAME | --kubeconfig PATH [--context NAME]] [--broken ENTRY[:DEPTH]]
                                             the terminal adapter: the cluster named "simulated", unless a
                                             configured cluster or a kubeconfig is chosen
  platform-medic sim [--port N] [--kubeconfig PATH] [--broken ENTRY[:DEPTH]]
                                             serve the simulated cluster alone and write a kubeconfig for it
  platform-medic match [--json] [FILE]       match an error (a file, or standard input) to the catalogue;
                                             exit 0 on a match, 1 on an ask or none, 2 on bad input
  platform-medic doctor [--json] [--cluster NAME | --kubeconfig PATH [--context C]] [--broken ENTRY[:DEPTH]]
                                             check a cluster for every symptom of the guide (read-only; a fresh
                                             simulated cluster when none is named): exit 0 none present, 1 some
                                             present, 3 none seen but some could not be told, 2 bad input
  platform-medic explain ID                  print a catalogue entry
  platform-medic values check [--json] [FILE] check installer values (a values file, --set flags or a helm
                                             upgrade command; standard input without FILE): exit 0 clean,
                                             1 problems, 2 bad input; --iam-role / --s3-compatible say more
  platform-medic values upgrade --provider S3|AZURE|GCP|BUNDLED [--logs-bucket B …]
                                             print the exact upgrade command (flags mirror the Slack modal)
  platform-medic list                        list the catalogue
  platform-medic --version                   print the version
  platform-medic gen-rbac --config FILE [--out DIR]
                                             write the worker's RBAC for each cluster of FILE, with its
                                             names, to DIR/rbac-<cluster>.yaml; exit 2 on a bad file

Configuration: environment variables and an optional YAML file (PLATFORM_MEDIC_CONFIG); see the README.`;

const loadConfig = async () => (await import('./config.js')).loadConfig();

/** The version in the product's package.json: beside src/ in the checkout, or two levels up from a build's dist/src/. */
async function ownVersion(): Promise<string> {
  const { readFileSync } = await import('node:fs');
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'platform-medic' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Not there: the next place up.
    }
  }
  return 'unknown (no package.json of platform-medic beside it)';
}

/** The commands, for "did you mean" on a mistyped one. */
const commands = ['start', 'bot', 'worker', 'terminal', 'sim', 'match', 'doctor', 'explain', 'values', 'list', 'gen-rbac', 'help', 'version'];

async function main(argv: string[]): Promise<void> {
  const [command = 'start', ...args] = argv;
  switch (command) {
    case 'start':
      parseFlags('start', args, {});
      return (await import('./app.js')).runStart({});
    case 'bot':
      parseFlags('bot', args, {});
      return (await import('./bot.js')).runBot(await loadConfig());
    case 'worker': {
      const cluster = parseFlags('worker', args, { '--cluster': 'value' }).value('--cluster');
      if (!cluster) throw new InputError('worker: --cluster NAME is required (one worker per cluster)');
      return (await import('./app.js')).runWorker(await loadConfig(), cluster);
    }
    case 'terminal': {
      const flags = parseFlags('terminal', args, { '--cluster': 'value', '--kubeconfig': 'value', '--context': 'value', '--broken': 'value' });
      const options = Object.fromEntries(['cluster', 'kubeconfig', 'context', 'broken'].flatMap((name) => (flags.has(`--${name}`) ? [[name, flags.value(`--${name}`)]] : [])));
      // A mistyped --broken is refused at once, before the terminal's modules load (a few seconds on a small machine).
      (await import('./cluster/sim/broken-spec.js')).checkBrokenFlags(options);
      return (await import('./app.js')).runTerminalDemo({}, options);
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
    case 'gen-rbac': {
      const flags = parseFlags('gen-rbac', args, { '--config': 'value', '--out': 'value' });
      if (!flags.has('--config')) throw new InputError('gen-rbac: --config FILE is required (the repository\'s deploy/rbac.yaml comes from npm run gen:rbac)');
      process.exitCode = await (await import('./remedies/gen-rbac.js')).runGenRbac(args, process);
      return;
    }
    case 'list': {
      parseFlags('list', args, {});
      const [{ listView }, { toText }, { planFromCommandLine }] = await Promise.all([import('./core/catalogue.js'), import('./views/plain.js'), import('./commands/plan-where.js')]);
      process.stdout.write(`${toText(listView(planFromCommandLine))}\n`);
      return;
    }
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${usage}\n`);
      return;
    case 'version':
    case '--version':
      parseFlags(command, args, {});
      process.stdout.write(`platform-medic ${await ownVersion()}\n`);
      return;
    default: {
      const near = closestWord(command, commands);
      // One line, as every other bad input: the usage is one --help away.
      const named = `Unknown command "${visible(command.slice(0, 60))}".`;
      process.stderr.write(
        near
          ? `${named} Did you mean "${near}"? platform-medic --help shows how to use the commands.\n`
          : `${named} The commands: ${commands.filter((c) => c !== 'help' && c !== 'version').join(', ')}; platform-medic --help shows how to use them.\n`,
      );
      process.exitCode = 2;
    }
  }
}

/** Their message is a whole answer on its own, without the program's name in front. */
const selfExplained = new Set(['config', 'redis-unavailable']);

/**
 * How the command line ends on an error: bad input (an argument, a file) is one line and exit 2; any
 * other failure a person can act on is its safe message and exit 1; a bug adds its trace, for the
 * report. The person reading is the one who ran the program, so a plain Error's message is shown too.
 */
function exitOn(err: unknown): never {
  const safe = toUserError(err);
  if (safe.code === 'input' || safe.code === 'file') {
    // It may quote what was typed (an unknown flag): its control characters escaped, as every answer's are.
    process.stderr.write(`platform-medic: ${visible(safe.safeMessage)}\n`);
    process.exit(2);
  }
  if (safe.code !== 'internal') process.stderr.write(`${selfExplained.has(safe.code) ? '' : 'platform-medic: '}${safe.safeMessage}\n`);
  else if (err instanceof Error && err.constructor === Error) process.stderr.write(`platform-medic: ${err.message}\n`);
  else process.stderr.write(`platform-medic: ${(err as Error)?.message ?? String(err)}\n(an unexpected error; please report it with this trace)\n${(err as Error)?.stack ?? ''}\n`);
  process.exit(1);
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

main(process.argv.slice(2)).catch(exitOn);
