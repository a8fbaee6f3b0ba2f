import { clearLine, createInterface, cursorTo } from 'node:readline';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { answerLine, ClusterEvidenceCache, doctorAnswer, evidenceCacheOptions, parseCommand, type Evidenced } from '../core/index.js';
import { requestFix } from '../core/fix.js';
import { command as commandSpan, note, t } from '../core/view.js';
import type { RedisOutageLog } from '../jobs/redis-outage.js';
import { RequestStore } from '../jobs/requests.js';
import { settlesWithin } from '../observability/shutdown.js';
import { toText } from '../views/plain.js';
import { sizeInWords, sizeOver } from '../views/size.js';
import { secondApprover } from './approvers.js';
import { terminalLifecycle } from './lifecycle.js';
import type { Question } from './reporter.js';

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

/** Text without terminal control sequences or control characters (newlines and tabs kept). */
export function stripControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]{0,20}[ -/]{0,4}[@-~]|\u001b\][^\u0007\u001b]{0,500}(?:\u0007|\u001b\\)|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/** The terminal's own commands, under help. */
const terminalHelp = note(
  t`Terminal only: ${commandSpan('cluster')} shows the cluster and its symptoms; ${commandSpan('cancel [id]')} cancels a remedy of this session; ${commandSpan('quit')} ends the session. Slash optional: ${commandSpan('/platform fix build-logs')} and ${commandSpan('fix build-logs')} are the same. Any other line is read as a pasted error.`,
);

/** Words the terminal takes besides the core's commands; they work while a question waits. */
const terminalWords = /^(?:quit|exit|cluster|cancel)(?:\s|$)/;

/** The commands whose argument is a paste, which may go on over the lines pasted with them. */
const takesPaste = /^\s*(?:\/platform\s+)?(?:values\s+check|match)(?:\s|$)/i;

/** Whether a line is a command (the core's or the terminal's), rather than an answer, a name or a paste. */
function isCommand(line: string): boolean {
  const text = line.trim().replace(/^\/platform\b/, '').trim();
  return terminalWords.test(text) || (text !== '' && parseCommand(text).kind !== 'unknown');
}

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
    // Once the input has ended or the person quit, no prompt is drawn again: nothing more is read.
    if (interactive && term.rl && !inputClosed && !quit) {
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
  /** The last line warned that quitting stops a running remedy: a quit right after it leaves. */
  let quitWarned = false;
  /** The person quit: nothing more is said. */
  let quit = false;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((r) => (finish = r));

  // The readline interface is created once the coordinator listens, so no line typed (or piped) early is lost.
  const prompt = () => {
    if (!term.rl || inputClosed) return;
    term.rl.setPrompt(questions[0] ? `${stripControl(questions[0].prompt)} > ` : 'platform> ');
    term.rl.prompt(true);
  };

  const settled = (id: string, done: boolean): void => {
    busy.delete(id);
    if (done) {
      open.delete(id);
      // A remedy that ended by itself (a question nobody answered in time) asks nothing more.
      questions.splice(0, questions.length, ...questions.filter((q) => q.requestId !== id));
      prompt();
    }
    void pump();
  };
  const ask = (q: Question): void => {
    // A remedy asks one thing at a time: a new question (Plan again, after its state was lost) replaces an older one.
    questions.splice(0, questions.length, ...questions.filter((o) => o.requestId !== q.requestId), q);
    busy.delete(q.requestId);
    prompt();
    void pump();
  };
  const remedies = terminalLifecycle({ config, logger, user, ...(options.outage ? { outage: options.outage } : {}), io: { print, ask, settled } });
  const { coordinator } = remedies;
  await coordinator.start();
  const evidence = new ClusterEvidenceCache(coordinator, evidenceCacheOptions(config));
  /** Pastes whose cluster evidence has not arrived yet: the session ends after them. */
  const checking = new Set<Promise<unknown>>();
  /** A paste's cluster evidence, printed below its answer when it arrives (a piped script waits for it, so the transcript keeps its order). */
  const showEvidence = async (later: Promise<Evidenced>): Promise<void> => {
    const printed = later.then((e) => {
      if (!quit) print(toText(e.evidence ?? e.view));
    });
    if (!interactive) return printed;
    checking.add(printed);
    void printed.finally(() => {
      checking.delete(printed);
      void pump();
    });
  };

  /** Says, for each question still waiting, what becomes of its remedy now that the session ends. */
  const sayUnanswered = (before = ''): void => {
    for (const q of questions.splice(0)) print(`${before}${q.unanswered}`);
  };

  /** The entry of each remedy started here, to name it when the session ends. */
  const entries = new Map<string, string>();
  /**
   * What quitting does to each remedy still open: said, not left to guess (its queues go with the session). A remedy
   * waiting for an answer is told by its question (sayUnanswered); one running, here.
   */
  const leave = (): void => {
    for (const id of open) {
      if (busy.has(id) && !questions.some((q) => q.requestId === id)) print(`(quit: ${entries.get(id) ?? 'remedy'} ${id} stops here: the steps it finished stay done, nothing more of it runs)`);
    }
    quit = true;
    sayUnanswered();
    finish();
  };

  async function command(line: string): Promise<void> {
    const typed = line.trim().replace(/^\/platform\b/, '').trim();
    // `/platform` alone is the help, as Slack answers it; only a blank line is nothing.
    const text = typed === '' && line.trim() !== '' ? 'help' : typed;
    if (text === '') return;
    // A paste is read up to the size of a shared file in Slack (maxFileBytes, 10 MB unless configured), as the
    // CLI's match is: a larger one is refused with its size, not matched whole on one side and refused on the other.
    const bytes = Buffer.byteLength(text);
    if (bytes > config.maxFileBytes) return print(`That paste is ${sizeOver(bytes, config.maxFileBytes)}; I read pastes up to ${sizeInWords(config.maxFileBytes)}, as shared files. Paste the part around the error.`);
    const warned = quitWarned;
    quitWarned = false;
    if (['quit', 'exit'].includes(text)) {
      // Every time, not once a session: only a quit right after the warning stops a running remedy.
      if (busy.size > 0 && !warned) {
        quitWarned = true;
        return print('A remedy is still running, and its worker runs in this session: quitting stops it. Type quit (or press Ctrl-C) again to quit anyway.');
      }
      return leave();
    }
    if (text === 'cluster') return print(options.describeCluster());
    if (text === 'cancel' || text.startsWith('cancel ')) {
      const id = text.slice('cancel'.length).trim() || [...open].pop();
      if (!id) return print('Nothing to cancel: no remedy of this session is open.');
      // Not said to be "no longer known": a word that is no remedy's id never named one.
      if (!RequestStore.isId(id)) return print(`That is not a remedy's id (r and ten letters or digits). "status" lists the open remedies with their ids; "cancel" alone cancels this session's latest.`);
      const answer = await coordinator.cancel(id, user);
      questions.splice(0, questions.length, ...questions.filter((q) => q.requestId !== id));
      if (answer.ok) {
        open.delete(id);
        busy.delete(id);
      }
      return print(answer.ok ? (answer.message ?? `Cancelled ${id}.`) : answer.message);
    }
    // An answer typed when no question waits (a, d, 1…) is no pasted error: say so rather than match one character.
    if (text.length === 1 && questions.length === 0) return print(`Nothing is waiting for an answer: no remedy of this session asked a question. Type "help" for the commands.`);
    // Everything else is the core's: the same commands and checks as /platform; any other line is a paste.
    const answer = await answerLine(text, { config, desk: coordinator, user, helpExtra: [terminalHelp], plainText: true, evidence });
    if (answer.kind === 'view') return print(toText(answer.view));
    if (answer.kind === 'paste') {
      print(toText(answer.view));
      return answer.reply.later && showEvidence(answer.reply.later);
    }
    if (answer.kind === 'doctor') return print(toText(await doctorAnswer(coordinator, answer.cluster, user)));
    if (answer.kind !== 'fix') return;
    const started = await requestFix(coordinator, config, { ...answer.ask, requestedBy: user, context: {} });
    if (!started.ok) return print(toText(started.view));
    open.add(started.request.id);
    entries.set(started.request.id, started.request.entryId);
    busy.add(started.request.id);
  }

  async function answer(q: Question, line: string): Promise<void> {
    const typed = line.trim();
    const word = typed.toLowerCase();
    const chosen = q.answers.find((a) => a.keys.includes(word));
    if (!chosen && isCommand(typed)) {
      // Commands still work while a question waits (look at the cluster, read help, quit); the question stays.
      await command(typed);
      if (!quit && questions[0] === q) print(`(still waiting) ${q.prompt}`);
      return;
    }
    if (!chosen && q.free && word !== '') {
      if (!interactive) print(`${q.prompt} > ${typed}`);
      if (!secondApprover(user, typed)) return print('That name is not a second person. The second approver types their own name. (Not an answer letter, and not a spelling of the name of the person who asked.)');
      questions.shift();
      busy.add(q.requestId);
      await remedies.perform(q.free.action(typed));
      return;
    }
    if (!chosen) {
      print(`Please answer one of: ${q.answers.map((a) => `${a.keys[0]} (${a.label})`).join(', ')}.`);
      return;
    }
    // Piped answers are echoed, so a transcript reads like the session a person would see.
    if (!interactive) print(`${q.prompt} > ${typed}`);
    questions.shift();
    busy.add(q.requestId);
    await remedies.perform(chosen.action);
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
        // After quit nothing more is read: the lines after it are named, not run (a piped script's rest).
        if (quit) {
          const left = lines.splice(0);
          print(`(quit: ${left.length === 1 ? 'the line' : `the ${left.length} lines`} after it ${left.length === 1 ? 'was' : 'were'} not read)`);
          break;
        }
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
    if (inputClosed && lines.length === 0 && busy.size === 0 && checking.size === 0 && !quit) {
      sayUnanswered('(input ended) ');
      finish();
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
    const looksLikeCommands = got.every((l) => isCommand(l) || l.trim() === '');
    // A paste that starts with a command taking a paste (`values check`, `match`) is that command, whole: a values
    // file pasted after `values check` is checked, not matched as an error.
    if (got.length > 1 && takesPaste.test(got[0]!)) lines.push(got.join('\n'));
    else if (got.length > 1 && !looksLikeCommands) lines.push(`match ${got.join('\n')}`);
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
    // Ctrl-D at a terminal: the prompt's line ends, as a shell ends it, and the session ends as quit ends it.
    if (interactive && !quit) output.write('\n');
    inputClosed = true;
    // After quit nothing waits: the input closes because the session ends.
    if (!quit && busy.size > 0 && lines.length === 0) print('(input ended; waiting for the running remedies to finish)');
    void pump();
  });
  print(`platform-medic terminal — cluster ${config.defaultCluster}. Type "help", "list" or "fix build-logs".`);
  prompt();
  await finished;
  rl.close();
  // Bounded: with Redis away, closing the queues' readers waits for a reconnection that may never come.
  await settlesWithin(remedies.close(), 3_000);
}
