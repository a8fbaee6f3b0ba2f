import type { CatalogueEntry, Decision, Stage } from '../../catalogue/model.js';
import type { Plan } from '../../remedies/plan.js';
import type { StepProgress } from '../../remedies/runner.js';
import type { RunResult } from '../names.js';
import type { RemedyRequest } from '../requests.js';

/**
 * How a run of a stage ended: completed (with what the entry's detector saw afterwards, when it
 * looked), failed, stopped because the cluster changed, or cancelled.
 */
export type EndedRun = Exclude<RunResult, { status: 'waiting' }>;

/** How a remedy ends after the guide's last question: an answer, or none in time. */
export type RemedyEnd = 'resolved' | 'not-resolved' | 'unanswered';

/**
 * What a reporter posted that later reports need, kept by the lifecycle with the request's routing
 * (e.g. `{ cardTs }`, the Slack approval card to update); undefined when nothing needs keeping.
 * `{ unposted: reason }`: the surface could not show the plan (Slack refused the card), so nobody can approve it.
 */
export type Posted = Readonly<Record<string, string>> | undefined;

/**
 * How a surface (Slack, the terminal) shows a remedy's life to the people who asked. The lifecycle
 * decides; a reporter only renders what it is given and returns what it posted.
 */
export interface RemedyReporter {
  planning(req: RemedyRequest, entry: CatalogueEntry, stage: Stage): Promise<void>;
  /** A plan is ready; `expiresAt` is when its approval runs out (shown while it waits for one). */
  planned(req: RemedyRequest, entry: CatalogueEntry, plan: Plan, expiresAt: Date): Promise<Posted>;
  approved(req: RemedyRequest, plan: Plan, by: string, auto: boolean): Promise<void>;
  denied(req: RemedyRequest, plan: Plan, by: string): Promise<void>;
  /** The plan's approval ran out before anyone approved it. */
  expired(req: RemedyRequest, plan: Plan): Promise<void>;
  cancelled(req: RemedyRequest, plan: Plan | undefined, by: string): Promise<void>;
  progress(req: RemedyRequest, plan: Plan, progress: StepProgress): Promise<void>;
  /** A secret a step read, opened in the bot's memory: shown to the person who asked, and to nobody else. */
  revealed(req: RemedyRequest, plan: Plan, secret: string): Promise<void>;
  /**
   * A stage ended; `decision` is the guide's next question when it has one. After the last stage,
   * `req.status` says whether the remedy resolved the symptom (`resolved`) or the detector still sees
   * it (`not-resolved`).
   */
  stageEnded(req: RemedyRequest, plan: Plan, outcome: EndedRun, decision?: Decision): Promise<void>;
  /** The remedy ended at a question of the guide: answered (`by` who), or unanswered within its time limit. */
  remedyEnded(req: RemedyRequest, end: RemedyEnd, message: string, by?: string): Promise<void>;
  /** A plan or run job failed, or the remedy's state was lost (`req.status` says which); the message is safe to show. */
  failed(req: RemedyRequest, message: string, plan: Plan | undefined): Promise<void>;
}
