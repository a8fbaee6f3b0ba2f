import type { types } from '@slack/bolt';
import type { ValuesCheck } from '../../values/check.js';
import type { UpgradeCommand, UpgradeRequest } from '../../values/upgrade.js';
import { defaultVolumeSize } from '../../values/upgrade.js';
import { valuesCheckView, upgradeView } from '../../core/values.js';
import { slackMessage } from './answer.js';
import { section, type Block } from './kit.js';

/** The modal's callback id, and the fields of its blocks (block_id = field name, action_id = `value`). */
export const valuesUpgradeCallbackId = 'values-upgrade';

/** The answer to `/platform values check`: each problem with its rule and corrected line, or "clean". */
export const valuesAnswer = (check: ValuesCheck): { text: string; blocks: Block[] } => slackMessage(valuesCheckView(check));

/** What the modal keeps between opening and submission: where to answer. Ids only. */
export interface UpgradeModalMetadata {
  /** The channel the command came from. */
  readonly c: string;
}

function textInput(field: keyof UpgradeRequest, label: string, hint: string, options: { placeholder?: string; initial?: string; optional?: boolean } = {}): Block {
  return {
    type: 'input',
    block_id: field,
    optional: options.optional ?? true,
    label: { type: 'plain_text', text: label },
    hint: { type: 'plain_text', text: hint },
    element: {
      type: 'plain_text_input',
      action_id: 'value',
      ...(options.placeholder ? { placeholder: { type: 'plain_text', text: options.placeholder } } : {}),
      ...(options.initial ? { initial_value: options.initial } : {}),
    },
  };
}

const option = (value: string, text: string) => ({ text: { type: 'plain_text' as const, text }, value });

/**
 * The `/platform values upgrade` modal. It asks for names only (buckets, regions, account, containers,
 * endpoint, volume size); secrets are never asked for: the command leaves placeholders for them.
 */
export function upgradeModal(metadata: UpgradeModalMetadata, clusters: readonly string[] = []): types.ModalView {
  const blocks: Block[] = [
    section("The exact `helm upgrade` for the platform's chart: values reused, `installer.modules={cicd}` kept (rule 4). *Never type a secret here*: the command leaves `<ACCESS_KEY>`-style placeholders for you to fill in."),
    {
      type: 'input',
      block_id: 'provider',
      label: { type: 'plain_text', text: 'Blob storage for build logs and cache' },
      element: {
        type: 'static_select',
        action_id: 'value',
        placeholder: { type: 'plain_text', text: 'Choose a provider' },
        options: [option('S3', 'S3 (AWS, or S3-compatible)'), option('AZURE', 'Azure Blob Storage'), option('GCP', 'Google Cloud Storage'), option('BUNDLED', 'The bundled local store (MinIO)')],
      },
    },
    textInput('logsBucket', 'Logs bucket', 'S3 and GCP: configs.DEFAULT_BUILD_LOGS_BUCKET', { placeholder: 'devtron-ci-logs' }),
    textInput('cacheBucket', 'Cache bucket', 'S3 and GCP: configs.DEFAULT_CACHE_BUCKET', { placeholder: 'devtron-ci-cache' }),
    textInput('logsRegion', 'Logs bucket region', 'AWS S3: configs.DEFAULT_CD_LOGS_BUCKET_REGION', { placeholder: 'us-east-1' }),
    textInput('cacheRegion', 'Cache bucket region', 'AWS S3: configs.DEFAULT_CACHE_BUCKET_REGION', { placeholder: 'us-east-1' }),
    {
      type: 'input',
      block_id: 'iamRole',
      optional: true,
      label: { type: 'plain_text', text: "Nodes' IAM role" },
      hint: { type: 'plain_text', text: 'AWS S3: with an S3 policy on the node IAM role, no keys are set (rule 1); otherwise both keys are (rule 2).' },
      element: { type: 'checkboxes', action_id: 'value', options: [option('yes', "The nodes' IAM role carries an S3 permission policy")] },
    },
    textInput('endpoint', 'S3-compatible endpoint', 'MinIO, Ceph…: configs.BLOB_STORAGE_S3_ENDPOINT (rule 3). Leave empty for AWS S3.', { placeholder: 'https://s3.example.com' }),
    textInput('azureAccount', 'Azure storage account', 'Azure: configs.AZURE_ACCOUNT_NAME (its key stays a placeholder)', { placeholder: 'devtronstore' }),
    textInput('azureLogsContainer', 'Azure logs container', 'Azure: configs.AZURE_BLOB_CONTAINER_CI_LOG', { placeholder: 'ci-log-container' }),
    textInput('azureCacheContainer', 'Azure cache container', 'Azure: configs.AZURE_BLOB_CONTAINER_CI_CACHE', { placeholder: 'ci-cache-container' }),
    textInput('volumeSize', 'Database volume size', 'components.postgres.persistence.volumeSize; entry 18 needs 20Gi', { initial: defaultVolumeSize, optional: false }),
  ];
  if (clusters.length > 1) {
    blocks.push({
      type: 'input',
      block_id: 'cluster',
      label: { type: 'plain_text', text: 'Cluster' },
      element: { type: 'static_select', action_id: 'value', initial_option: option(clusters[0]!, clusters[0]!), options: clusters.slice(0, 100).map((c) => option(c, c)) },
    });
  }
  return {
    type: 'modal',
    callback_id: valuesUpgradeCallbackId,
    private_metadata: JSON.stringify(metadata),
    title: { type: 'plain_text', text: 'Upgrade command' },
    submit: { type: 'plain_text', text: 'Get command' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks,
  };
}

/** The command, as posted (ephemerally) after the modal: what to fill in, then the script. */
export const upgradeCommandBlocks = (request: UpgradeRequest, command: UpgradeCommand): { text: string; blocks: Block[] } => slackMessage(upgradeView(request, command));
