import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { MedicMetrics, RequestKind } from './metrics.js';

/** What kind of Slack request a payload is, for the requests metric (few values: low cardinality). */
export function requestKind(body: AnyMiddlewareArgs['body']): RequestKind {
  const b = body as { command?: unknown; type?: unknown };
  if (typeof b.command === 'string') return 'command';
  switch (b.type) {
    case 'block_actions':
    case 'interactive_message':
      return 'action';
    case 'message_action':
    case 'shortcut':
      return 'shortcut';
    case 'view_submission':
    case 'view_closed':
      return 'view';
    case 'event_callback':
      return 'event';
    default:
      return 'other';
  }
}

/** Bolt global middleware counting every request by kind and whether its listeners threw. */
export function countRequests(metrics: MedicMetrics): Middleware<AnyMiddlewareArgs> {
  return async function countRequest({ body, next }) {
    const kind = requestKind(body);
    try {
      await next();
      metrics.request(kind, 'ok');
    } catch (err) {
      metrics.request(kind, 'error');
      throw err;
    }
  };
}
