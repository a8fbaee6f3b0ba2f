import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import { closestIds, findEntry } from '../catalogue/index.js';
import { parseCommand } from '../commands/parse.js';
import type { Config } from '../config.js';
import { findCluster } from '../config.js';
import { helpBlocks, listBlocks, unknownEntryBlocks } from '../handlers/blocks/catalogue.js';
import { RemedyCoordinator, type ApprovalPolicy } from '../remedies/coordinator.js';
import { blocksToText } from './render.js';
import { TerminalReporter, type Question } from './reporter.js';

/** What a terminal session runs against. */
export interface TerminalOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** The local operator, e.g. `terminal:alice`. */
  readonly user: string;
  /** Lines describing the cluster for the `cluster` command (simulated or not, its symptoms). */
  readonly describeCluster: () => string;
}

/**
 * The local operator approves restarts at their own terminal; a destructive plan needs a second person,
 * which a terminal cannot provide.
 */
function terminalPolicy(user: string): ApprovalPolicy {
  return {
    refusal(who, plan) {
      if (who !== user) return 'Only the person at this terminal can approve here.';
      if (plan.approval === 'second-person') return 'This plan has destructive steps and needs a second person: approve it in Slack.';
      return undefined;
    },
  };
}

const terminalHelp = 'Terminal only: `cluster` shows the cluster and its symptoms; `quit` ends the session. Slash optional: `/platform fix build-logs` and `fix build-logs` are the same.';

/**
 * A terminal session that takes the same commands as `/platform`, asks for approval by prompt and
 * runs real jobs through Redis. Resolves when the person quits, or when the input ends and every
 * remedy it started has settled.
 */
export async function runTerminal(options: TerminalOptions): Promise<void> {
  const { config, logger, output, user } = options;
  const interactive = (options.input as { isTTY?: boolean }).isTTY === true;
  const print = (text: string): void => {
    output.write(`${text}\n`);
  };
  const questions: Question[] = [];
  /** Remedies started here that have not ended. */
  const open = new Set<string>();
  /** Remedies working on their own (planning, running, waiting) rather than waiting for an answer. */
  const busy = new Set<string>();
  const lines: string[] = [];
  let inputClosed = false;
  let pumping = false;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((r) => (finish = r));

  // Created once the coordinator listens, so no line typed (or piped) early is lost.
  const term: { rl?: ReturnType<typeof createInterface> } = {};
  const prompt = () => {
    if (!term.rl || inputClosed) return;
    term.rl.setPrompt(questions[0] ? `${questions[0].prompt} > ` : 'platform> ');
    term.rl.prompt();
  };

  const reporter: TerminalReporter = new TerminalReporter(
    {
      print: (t) => {
        print(t);
        prompt();
      },
      ask: (q) => {
        questions.push(q);
        busy.delete(q.requestId);
        prompt();
        void pump();
      },
      settled: (id, done) => {
        busy.delete(id);
        if (done) open.delete(id);
        void pump();
      },
    },
    {
      approve: async (req, plan): Promise<void> => say(await coordinator.approve(req.id, plan.stageId, plan.hash, user)),
      deny: async (req, plan): Promise<void> => say(await coordinator.deny(req.id, plan.stageId, plan.hash, user)),
      choose: async (req, stageId, choiceId): Promise<void> => say(await coordinator.choose(req.id, stageId, choiceId, user)),
      replan: async (req): Promise<void> => say(await coordinator.replan(req.id, req.stageId, user)),
    },
  );
  const coordinator: RemedyCoordinator = new RemedyCoordinator({ config, logger, reporter, policy: terminalPolicy(user) });
  const say = (a: { ok: boolean; message?: string }) => {
    if (!a.ok || a.message) print(a.message ?? '');
  };
  await coordinator.start();

  async function command(line: string): Promise<void> {
    const text = line.trim().replace(/^\/platform\b/, '').trim();
    if (text === '') return;
    if (['quit', 'exit', 'q'].includes(text)) {
      finish();
      return;
    }
    if (text === 'cluster') return print(options.describeCluster());
    const parsed = parseCommand(text);
    switch (parsed.kind) {
      case 'help':
        return print(`${blocksToText(helpBlocks(config.clusters.map((c) => c.name), config.defaultCluster))}\n${blocksToText([{ type: 'section', text: { type: 'mrkdwn', text: terminalHelp } }])}`);
      case 'list':
        return print(blocksToText(listBlocks()));
      case 'usage':
        return print(parsed.message);
      case 'unknown':
        return print(`Unknown command "${parsed.word}". Try "help".`);
      case 'fix': {
        if (!findEntry(parsed.entryId)) return print(blocksToText(unknownEntryBlocks(parsed.entryId, closestIds(parsed.entryId))));
        const cluster = parsed.cluster ?? config.defaultCluster;
        if (!findCluster(config, cluster)) return print(`There is no cluster "${cluster}". Configured: ${config.clusters.map((c) => c.name).join(', ')}.`);
        const started = await coordinator.requestFix({ entryId: parsed.entryId, cluster, requestedBy: user, context: {} });
        if (!started.ok) return print(started.message);
        open.add(started.request.id);
        busy.add(started.request.id);
        return;
      }
    }
  }

  async function answer(q: Question, line: string): Promise<void> {
    const word = line.trim().toLowerCase();
    const chosen = q.answers.find((a) => a.keys.includes(word));
    if (!chosen) {
      print(`Please answer one of: ${q.answers.map((a) => `${a.keys[0]} (${a.label})`).join(', ')}.`);
      return;
    }
    // Piped answers are echoed, so a transcript reads like the session a person would see.
    if (!interactive) print(`${q.prompt} > ${line.trim()}`);
    questions.shift();
    busy.add(q.requestId);
    await chosen.act();
  }

  /**
   * Handles the lines in order. A person at a terminal may type while a remedy runs; piped input is
   * taken in step with the remedies instead, so a scripted "fix …" then "a" answers the approval
   * rather than arriving before the question.
   */
  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (lines.length > 0) {
        if (!interactive && questions.length === 0 && busy.size > 0) break;
        const line = lines.shift()!;
        try {
          await (questions[0] ? answer(questions[0], line) : command(line));
        } catch (err) {
          print(`Error: ${(err as Error).message}`);
        }
        prompt();
      }
    } finally {
      pumping = false;
    }
    if (inputClosed && lines.length === 0 && (busy.size === 0 || !interactive)) {
      if (busy.size === 0) {
        for (const q of questions) print(`(input ended; not answered: ${q.prompt})`);
        finish();
      }
    }
  }

  const rl = createInterface({ input: options.input, output: options.output, terminal: interactive });
  term.rl = rl;
  rl.on('line', (line) => {
    lines.push(line);
    void pump();
  });
  rl.on('close', () => {
    inputClosed = true;
    if (busy.size > 0 && lines.length === 0) print('(input ended; waiting for the running remedies to finish)');
    void pump();
  });
  print(`platform-medic terminal — cluster ${config.defaultCluster}. Type "help", "list" or "fix build-logs".`);
  prompt();
  await finished;
  rl.close();
  await coordinator.close();
}
