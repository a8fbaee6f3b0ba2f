import { clearLine, createInterface, cursorTo } from 'node:readline';
import type { Logger } from 'pino';
import { closestIds, findEntry } from '../catalogue/index.js';
import { parseCommand } from '../core/parse.js';
import type { Config } from '../config.js';
import type { RedisOutageLog } from '../jobs/redis-outage.js';
import { approvalRules, findCluster } from '../config.js';
import { helpBlocks, listBlocks, unknownEntryBlocks } from '../views/slack/catalogue.js';
import { auditBlocks } from '../views/slack/audit.js';
import { explainBlocks } from '../views/slack/explain.js';
import { matchAnswer } from '../views/slack/match.js';
import { looksLikeError } from '../handlers/messages/looks-like-error.js';
import { match } from '../matching/index.js';
import { RemedyCoordinator, type ApprovalPolicy } from '../remedies/coordinator.js';
import { valuesTerminalAnswer } from '../commands/values-cli.js';
import { blocksToText } from '../views/text.js';
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
  /** The session's Redis outage log, shared with its worker. */
  readonly outage?: RedisOutageLog;
}

/**
 * At a terminal the local operator approves restarts; a destructive plan, under the two-person rule,
 * is approved by a second person at the same terminal, who gives their name (the audit trail keeps
 * it). The terminal cannot check who types; Slack can, and is where the rule is enforced for real.
 */
function terminalPolicy(user: string, twoPersonRule: (cluster: string) => boolean): ApprovalPolicy {
  return {
    async refusal(who, plan) {
      const second = plan.approval === 'second-person' && twoPersonRule(plan.cluster);
      if (second) return who !== user && who.startsWith('terminal:') ? undefined : 'Destructive steps need a second person: the second approver types their name at the prompt.';
      return who === user ? undefined : 'Only the person at this terminal can approve here.';
    },
    async check(who) {
      return { approver: who === user };
    },
  };
}

/** A second approver's name as the audit trail records it. */
function secondApprover(user: string, name: string): string | undefined {
  const clean = name.trim().replace(/[^A-Za-z0-9._ -]/g, '').slice(0, 40).trim();
  const who = `terminal:${clean}`;
  return clean === '' || who === user ? undefined : who;
}

/** Text without terminal control sequences or control characters (newlines and tabs kept). */
export function stripControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]{0,20}[ -/]{0,4}[@-~]|\u001b\][^\u0007\u001b]{0,500}(?:\u0007|\u001b\\)|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/** A match answer as terminal text; its buttons become the commands to type. */
function answerText(pasted: string): string {
  const result = match(pasted);
  const text = blocksToText(matchAnswer(result).blocks.filter((b) => b.type !== 'actions'));
  const top = result.verdict === 'match' ? result.matches[0]!.id : undefined;
  return top ? `${text}\n  Type "fix ${top}" to plan it, or "explain ${top}".` : text;
}

const terminalHelp = 'Terminal only: `cluster` shows the cluster and its symptoms; `cancel [id]` cancels a remedy of this session; `quit` ends the session. Slash optional: `/platform fix build-logs` and `fix build-logs` are the same.';

/**
 * A terminal session that takes the same commands as `/platform`, asks for approval by prompt and
 * runs real jobs through Redis. Resolves when the person quits, or when the input ends and every
 * remedy it started has settled.
 */
export async function runTerminal(options: TerminalOptions): Promise<void> {
  const { config, logger, output, user } = options;
  const interactive = (options.input as { isTTY?: boolean }).isTTY === true;
  const term: { rl?: ReturnType<typeof createInterface> } = {};
  /**
   * Prints above the prompt: on a terminal the line being typed is cleared, the text written, and the
   * prompt with the half-typed line drawn again. Control characters from pasted text are removed, so
   * a paste cannot clear the screen or retitle the window.
   */
  const print = (text: string): void => {
    const clean = stripControl(text);
    if (interactive && term.rl) {
      clearLine(output, 0);
      cursorTo(output, 0);
      output.write(`${clean}\n`);
      term.rl.prompt(true);
    } else {
      output.write(`${clean}\n`);
    }
  };
  const questions: Question[] = [];
  /** Remedies started here that have not ended. */
  const open = new Set<string>();
  /** Remedies working on their own (planning, running, waiting) rather than waiting for an answer. */
  const busy = new Set<string>();
  const lines: string[] = [];
  let inputClosed = false;
  let pumping = false;
  let quitting = false;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((r) => (finish = r));

  // The readline interface is created once the coordinator listens, so no line typed (or piped) early is lost.
  const prompt = () => {
    if (!term.rl || inputClosed) return;
    term.rl.setPrompt(questions[0] ? `${stripControl(questions[0].prompt)} > ` : 'platform> ');
    term.rl.prompt(true);
  };

  const reporter: TerminalReporter = new TerminalReporter(
    {
      print: (t) => print(t),
      ask: (q) => {
        // A remedy asks one thing at a time: a new question (Plan again, after its state was lost) replaces an older one.
        questions.splice(0, questions.length, ...questions.filter((o) => o.requestId !== q.requestId), q);
        busy.delete(q.requestId);
        prompt();
        void pump();
      },
      settled: (id, done) => {
        busy.delete(id);
        if (done) {
          open.delete(id);
          // A remedy that ended by itself (a question nobody answered in time) asks nothing more.
          questions.splice(0, questions.length, ...questions.filter((q) => q.requestId !== id));
          prompt();
        }
        void pump();
      },
    },
    {
      approve: async (req, plan): Promise<void> => say(await coordinator.approve(req.id, plan.stageId, req.attempt ?? '', user)),
      approveAs: async (req, plan, name): Promise<void> => {
        const who = secondApprover(user, name);
        if (!who) {
          print('That name is not a second person. The second approver types their own name.');
          reporter.planned(req, findEntry(req.entryId)!, plan).catch(() => undefined);
          return;
        }
        say(await coordinator.approve(req.id, plan.stageId, req.attempt ?? '', who));
      },
      deny: async (req, plan): Promise<void> => say(await coordinator.deny(req.id, plan.stageId, req.attempt ?? '', user)),
      choose: async (req, stageId, choiceId): Promise<void> => say(await coordinator.choose(req.id, stageId, choiceId, user, req.attempt)),
      replan: async (req): Promise<void> => say(await coordinator.replan(req.id, req.stageId, user)),
    },
    (plan) => approvalRules(config, plan.cluster).twoPersonRule,
  );
  const twoPersonRule = (cluster: string) => approvalRules(config, cluster).twoPersonRule;
  const coordinator: RemedyCoordinator = new RemedyCoordinator({ config, logger, reporter, policy: terminalPolicy(user, twoPersonRule), ...(options.outage ? { outage: options.outage } : {}) });
  const say = (a: { ok: boolean; message?: string }) => {
    if (!a.ok || a.message) print(a.message ?? '');
  };
  await coordinator.start();

  async function command(line: string): Promise<void> {
    const text = line.trim().replace(/^\/platform\b/, '').trim();
    if (text === '') return;
    if (['quit', 'exit'].includes(text)) {
      if (busy.size > 0 && !quitting) {
        quitting = true;
        return print('A remedy is still running, and its worker runs in this session: quitting stops it. Type quit again to quit anyway.');
      }
      finish();
      return;
    }
    if (text === 'cluster') return print(options.describeCluster());
    if (text === 'cancel' || text.startsWith('cancel ')) {
      const id = text.slice('cancel'.length).trim() || [...open].pop();
      if (!id) return print('Nothing to cancel: no remedy of this session is open.');
      const answer = await coordinator.cancel(id, user);
      questions.splice(0, questions.length, ...questions.filter((q) => q.requestId !== id));
      if (answer.ok) {
        open.delete(id);
        busy.delete(id);
      }
      return print(answer.ok ? (answer.message ?? `Cancelled ${id}.`) : answer.message);
    }
    const parsed = parseCommand(text);
    switch (parsed.kind) {
      case 'help':
        return print(`${blocksToText(helpBlocks(config.clusters.map((c) => c.name), config.defaultCluster))}\n${blocksToText([{ type: 'section', text: { type: 'mrkdwn', text: terminalHelp } }])}`);
      case 'list':
        return print(blocksToText(listBlocks()));
      case 'usage':
        return print(parsed.message);
      case 'explain': {
        const entry = findEntry(parsed.entryId);
        return print(entry ? blocksToText(explainBlocks(entry)) : blocksToText(unknownEntryBlocks(parsed.entryId, closestIds(parsed.entryId))));
      }
      case 'match':
        return print(answerText(parsed.text));
      case 'values':
        return print(valuesTerminalAnswer(parsed, findCluster(config, config.defaultCluster)));
      case 'audit':
        return print(blocksToText(auditBlocks(await coordinator.audit.latest(parsed.count))));
      case 'unknown': {
        // A pasted error line is matched as it is, as in a Slack channel; other words get the help hint.
        const result = match(text);
        if (result.verdict === 'match' || looksLikeError(text)) return print(answerText(text));
        return print(`Unknown command "${parsed.word}". Try "help", or "match <error text>".`);
      }
      case 'fix': {
        if (!findEntry(parsed.entryId)) return print(blocksToText(unknownEntryBlocks(parsed.entryId, closestIds(parsed.entryId))));
        const cluster = parsed.cluster ?? config.defaultCluster;
        if (!findCluster(config, cluster)) return print(`There is no cluster "${cluster}". Configured: ${config.clusters.map((c) => c.name).join(', ')}.`);
        const started = await coordinator.requestFix({ entryId: parsed.entryId, cluster, requestedBy: user, params: parsed.params, context: {} });
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
    if (!chosen && q.free && word !== '' && !['quit', 'exit', 'cluster', 'cancel'].includes(word)) {
      if (!interactive) print(`${q.prompt} > ${line.trim()}`);
      questions.shift();
      busy.add(q.requestId);
      await q.free.act(line.trim());
      return;
    }
    if (!chosen) {
      // Commands still work while a question waits (look at the cluster, read help, quit); the question stays.
      if (word !== '' && (['quit', 'exit', 'cluster', 'cancel'].includes(word) || word.startsWith('cancel ') || !['unknown', 'usage'].includes(parseCommand(line).kind))) {
        await command(line);
        if (questions[0] === q) print(`(still waiting) ${q.prompt}`);
        return;
      }
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
  // A person pastes a log or a kubectl table as many lines at once: lines that arrive within a few
  // milliseconds of each other are one paste, matched whole, not read as commands one by one.
  let pasted: string[] = [];
  let pasteTimer: NodeJS.Timeout | undefined;
  const flushPaste = () => {
    pasteTimer = undefined;
    const got = pasted;
    pasted = [];
    const looksLikeCommands = got.every((l) => !['unknown'].includes(parseCommand(l.replace(/^\/platform\b/, '')).kind) || l.trim() === '');
    if (got.length > 1 && !looksLikeCommands) lines.push(`match ${got.join('\n')}`);
    else lines.push(...got);
    void pump();
  };
  rl.on('line', (line) => {
    if (!interactive) {
      lines.push(line);
      void pump();
      return;
    }
    pasted.push(line);
    if (pasteTimer) clearTimeout(pasteTimer);
    pasteTimer = setTimeout(flushPaste, 30);
  });
  // Ctrl-C quits, with the same care as `quit`.
  rl.on('SIGINT', () => {
    lines.push('quit');
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
