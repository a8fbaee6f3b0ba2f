import { newTriggerId } from './slack-requests.js';
import { FAKE_WORKSPACE } from './slack-workspace.js';
import { requester } from './stack.js';

/** Field values as the upgrade modal's state holds them: text inputs, the provider select and the IAM checkbox. */
export function upgradeFormState(fields: Record<string, string | boolean>): Record<string, Record<string, unknown>> {
  const state: Record<string, Record<string, unknown>> = {};
  for (const [block, value] of Object.entries(fields)) {
    if (block === 'provider') state[block] = { value: { type: 'static_select', selected_option: { text: { type: 'plain_text', text: String(value) }, value } } };
    else if (block === 'iamRole') state[block] = { value: { type: 'checkboxes', selected_options: value ? [{ text: { type: 'plain_text', text: 'yes' }, value: 'yes' }] : [] } };
    else state[block] = { value: { type: 'plain_text_input', value } };
  }
  return state;
}

/** A `view_submission` of the upgrade modal as Slack sends it when the person (the requester) presses its submit button. */
export function upgradeFormSubmission(view: Record<string, unknown>, viewId: string, fields: Record<string, string | boolean>): string {
  const payload = {
    type: 'view_submission',
    team: { id: FAKE_WORKSPACE.teamId, domain: FAKE_WORKSPACE.teamDomain },
    user: { id: requester, username: requester.toLowerCase(), name: requester.toLowerCase(), team_id: FAKE_WORKSPACE.teamId },
    api_app_id: FAKE_WORKSPACE.appId,
    token: FAKE_WORKSPACE.verificationToken,
    trigger_id: newTriggerId(),
    view: { ...view, id: viewId, team_id: FAKE_WORKSPACE.teamId, app_id: FAKE_WORKSPACE.appId, hash: 'h.1', state: { values: upgradeFormState(fields) } },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
