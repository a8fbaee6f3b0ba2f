/**
 * Socket Mode: the same payloads the HTTP builders of slack-requests.ts make, delivered as Slack
 * delivers them over a Socket Mode connection (a slash command's fields as a JSON object, an
 * interaction's payload as is) and answered by the app with an acknowledgement.
 */
import type { Acknowledgement, DeliveredEnvelope, DeliverOptions, EnvelopeType, FakeSlackApi } from '../fakes/slack-api.js';

/** A slash command's form body (slashCommandBody) as the envelope's payload. */
export function slashPayload(formBody: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(formBody));
}

/** An interaction's form body (blockActionsBody, …) as the envelope's payload. */
export function interactionPayload(formBody: string): Record<string, unknown> {
  return JSON.parse(new URLSearchParams(formBody).get('payload') ?? 'null') as Record<string, unknown>;
}

/** Sends an envelope and resolves with it and the app's acknowledgement of this delivery. */
export async function deliver(
  fake: FakeSlackApi,
  type: EnvelopeType,
  payload: Record<string, unknown>,
  options: DeliverOptions & { timeoutMs?: number } = {},
): Promise<{ envelope: DeliveredEnvelope; ack: Acknowledgement }> {
  const acksOf = (id: string) => fake.socketMode.acks.filter((a) => a.envelope_id === id);
  const before = options.envelopeId ? acksOf(options.envelopeId).length : 0;
  const envelope = fake.socketMode.deliver(type, payload, options);
  const ack = await fake.waitFor(() => acksOf(envelope.envelope_id)[before], { what: `acknowledgement of ${type} envelope ${envelope.envelope_id}`, timeoutMs: options.timeoutMs ?? 5_000 });
  return { envelope, ack };
}
