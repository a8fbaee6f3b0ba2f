import type { RemedyCoordinator } from '../jobs/lifecycle/coordinator.js';
import { RequestStore } from '../jobs/requests.js';
import { code, command, says, t, ticked } from './view.js';
import type { View } from './view.js';

/** The queue side's part of `cancel`, as the core uses it (the coordinator's public method). */
export type CancelDesk = Pick<RemedyCoordinator, 'cancel'>;

/**
 * `/platform cancel <id>`: cancels a remedy by its id from wherever the person is. Its card's Cancel button is in its
 * thread, which an approver may not see (a private channel they are not in); the same rules apply as to the button
 * (the person who asked, or an approver of its cluster), and its thread says it was cancelled.
 */
export async function cancelAnswer(desk: CancelDesk, user: string, id: string): Promise<View> {
  if (!RequestStore.isId(id)) {
    return says(t`${code(id.slice(0, 40))} is not a remedy's id (r and ten letters or digits): its thread names it, and so does ${command('/platform status')}. Nothing was done.`);
  }
  const answer = await desk.cancel(id, user);
  // The queue side's words name people (who holds or decided it): its mentions are ours, shown as people.
  if (!answer.ok) return says(ticked(answer.message, 'code', { people: true }));
  return says(answer.message ? ticked(answer.message, 'code', { people: true }) : t`Cancelled ${code(id)}: its thread says so, and nothing more of it runs.`);
}
