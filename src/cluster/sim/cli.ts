import { resolve } from 'node:path';
import { givenTwiceMessage, unknownFlagMessage } from '../../cli-flags.js';
import { fileReason, InputError } from '../../errors.js';
import { brokenSpec } from './broken-spec.js';

/** The parsed flags of `npm run sim`. */
interface SimArgs {
  host: string;
  port: number;
  kubeconfig: string;
  broken: Array<{ entryId: string; depth?: string }>;
  verbose: boolean;
}

const simFlags = ['--port', '--host', '--kubeconfig', '--broken', '--verbose'];
const usage = 'usage: npm run sim -- [--port N] [--host ADDR] [--kubeconfig PATH] [--broken ENTRY[:depth]]... [--verbose]';

function parseArgs(argv: string[]): SimArgs {
  const args: SimArgs = { host: '127.0.0.1', port: 0, kubeconfig: './.kube-sim/config', broken: [], verbose: false };
  const once = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? '';
    const [name, inline] = flag.includes('=') ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)] : [flag, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new InputError(`${name} needs a value; ${usage}`);
      // --broken may be repeated (each entry broken); the others take one value, which a second must not replace unseen.
      const before = once.get(name);
      if (name !== '--broken' && before !== undefined && before !== v) throw new InputError(`sim: ${givenTwiceMessage(name, before, v)}`);
      once.set(name, v);
      return v;
    };
    switch (name) {
      case '--port': {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InputError(`--port must be a port number; ${usage}`);
        args.port = port;
        break;
      }
      case '--host':
        args.host = value();
        break;
      case '--kubeconfig':
        args.kubeconfig = value();
        break;
      case '--broken':
        args.broken.push(brokenSpec(value()));
        break;
      case '--verbose':
        args.verbose = true;
        break;
      default:
        throw new InputError(name.startsWith('-') ? `sim: ${unknownFlagMessage(name, simFlags)}` : `unknown argument ${flag.slice(0, 80)}; ${usage}`);
    }
  }
  return args;
}

/** Where `--host` / `--port` cannot be listened on, the person's input, with what to type instead; undefined for anything else. */
function listenRefusal(err: unknown, args: SimArgs): InputError | undefined {
  const code = (err as { code?: unknown }).code;
  const host = args.host.slice(0, 60);
  const instead = 'use 127.0.0.1 (the default), 0.0.0.0 for every interface, or another address of this machine';
  switch (code) {
    // The port asked for is taken (another sim, a real API server).
    case 'EADDRINUSE':
      return new InputError(`--port ${args.port}: ${host}:${args.port} is already in use; choose another port, or leave out --port for a free one`);
    case 'EACCES':
      return new InputError(`--port ${args.port}: this user may not listen on it (ports below 1024 need privileges); choose another port, or leave out --port for a free one`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new InputError(`--host ${host}: no such address (the name does not resolve); ${instead}`);
    case 'EADDRNOTAVAIL':
      return new InputError(`--host ${host}: not an address of this machine; ${instead}`);
    default:
      return undefined;
  }
}

/**
 * `npm run sim`: serves a simulated cluster for the terminal demo until SIGINT or SIGTERM, and writes a
 * kubeconfig so that kubectl and the bot can reach it.
 */
export async function runSimCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const args = parseArgs(argv);
  const { sim, notes } = await (await import('./demo.js'))
    .startDemoPlatform({
      host: args.host,
      port: args.port,
      broken: args.broken.map((b) => b.entryId + (b.depth ? `:${b.depth}` : '')),
      ...(args.verbose ? { log: (line: string) => out.write(`${line}\n`) } : {}),
    })
    .catch((err: unknown) => {
      throw listenRefusal(err, args) ?? err;
    });
  try {
    const kubeconfig = resolve(args.kubeconfig);
    await sim.writeKubeconfig(kubeconfig).catch((err: unknown) => {
      const reason = fileReason(err);
      throw reason ? new InputError(`cannot write the kubeconfig ${kubeconfig}: ${reason}`) : err;
    });
    out.write(
      [
        // The address the kubeconfig holds (kubectl sends a token only over TLS); plain HTTP on the same port is for tests.
        `simulated cluster serving at ${sim.tlsUrl} (certificate in the kubeconfig)`,
        `kubeconfig written to ${kubeconfig}`,
        ...(args.broken.length > 0 ? [`broken: ${args.broken.map((b) => b.entryId + (b.depth ? `:${b.depth}` : '')).join(', ')}`] : []),
        ...notes,
        `a cluster of the bot's configuration reaches this platform with: ${Object.entries(sim.addresses).map(([k, v]) => `${k}: ${String(v)}`).join(', ')}`,
        'try:',
        `  KUBECONFIG=${kubeconfig} kubectl get pods -n ${sim.names.platformNamespace}`,
        'press Ctrl-C to stop',
        '',
      ].join('\n'),
    );
  } catch (error) {
    await sim.close();
    throw error;
  }
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await sim.close();
  out.write('simulated cluster stopped\n');
}
