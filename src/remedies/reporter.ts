import type { CatalogueEntry, Decision, Stage } from '../catalogue/model.js';
import type { RemedyRequest } from '../jobs/requests.js';
import type { Plan } from './plan.js';
import type { RunOutcome, StepProgress } from './runner.js';

/** How a remedy ends after the guide's last question: an answer, or none in time. */
export type RemedyEnd = 'resolved' | 'not-resolved' | 'unanswered';

/** How a surface (Slack, the terminal) shows a remedy's life to the people who asked. */
export interface RemedyReporter {
  planning(req: RemedyRequest, entry: CatalogueEntry, stage: Stage): Promise<void>;
  planned(req: RemedyRequest, entry: CatalogueEntry, plan: Plan): Promise<void>;
  approved(req: RemedyRequest, plan: Plan, by: string, auto: boolean): Promise<void>;
  denied(req: RemedyRequest, plan: Plan, by: string): Promise<void>;
  /** The plan's approval ran out before anyone approved it. */
  expired(req: RemedyRequest, plan: Plan): Promise<void>;
  cancelled(req: RemedyRequest, plan: Plan | undefined, by: string): Promise<void>;
  progress(req: RemedyRequest, plan: Plan, progress: StepProgress): Promise<void>;
  /** A secret a step read, opened in the bot's memory: shown to the person who asked, and to nobody else. */
  revealed(req: RemedyRequest, plan: Plan, secret: string): Promise<void>;
  /** A stage ended; `decision` is the guide's next question when it has one. */
  stageEnded(req: RemedyRequest, plan: Plan, outcome: Exclude<RunOutcome, { status: 'waiting' }>, decision?: Decision): Promise<void>;
  /** The remedy ended at a question of the guide: answered (`by` who), or unanswered within its time limit. */
  remedyEnded(req: RemedyRequest, end: RemedyEnd, message: string, by?: string): Promise<void>;
  /** A plan or run job failed; the message is safe to show. */
  failed(req: RemedyRequest, message: string): Promise<void>;
}
