/**
 * The protobuf messages of the kinds kubectl's typed commands send (`create configmap|secret|namespace|
 * serviceaccount|service|deployment|job`), by field number as in k8s.io/api/{core,apps,batch}/v1/generated.proto and
 * k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto. Kubernetes' generated marshallers write every
 * non-pointer scalar even when empty, so those are listed too; a field not listed (volumes, probes, affinity,
 * security contexts...) makes the body unreadable rather than silently dropped.
 */

export type Scalar = 'string' | 'strings' | 'int' | 'bool' | 'map' | 'bytemap' | 'time' | 'quantity' | 'quantitymap' | 'intorstring';
/** `[json name, type, keep]`: `keep` for pointer fields, whose zero value is a value. A message in `[]` is repeated. */
export type Field = [string, Scalar | Message | [Message], boolean?];
export type Message = Record<number, Field>;

const ownerReference: Message = { 1: ['kind', 'string'], 3: ['name', 'string'], 4: ['uid', 'string'], 5: ['apiVersion', 'string'], 6: ['controller', 'bool', true], 7: ['blockOwnerDeletion', 'bool', true] };

const objectMeta: Message = {
  1: ['name', 'string'],
  2: ['generateName', 'string'],
  3: ['namespace', 'string'],
  4: ['selfLink', 'string'],
  5: ['uid', 'string'],
  6: ['resourceVersion', 'string'],
  7: ['generation', 'int'],
  8: ['creationTimestamp', 'time'],
  9: ['deletionTimestamp', 'time'],
  10: ['deletionGracePeriodSeconds', 'int', true],
  11: ['labels', 'map'],
  12: ['annotations', 'map'],
  13: ['ownerReferences', [ownerReference]],
  14: ['finalizers', 'strings'],
};

const labelSelector: Message = {
  1: ['matchLabels', 'map'],
  2: ['matchExpressions', [{ 1: ['key', 'string'], 2: ['operator', 'string'], 3: ['values', 'strings'] }]],
};

const container: Message = {
  1: ['name', 'string'],
  2: ['image', 'string'],
  3: ['command', 'strings'],
  4: ['args', 'strings'],
  5: ['workingDir', 'string'],
  6: ['ports', [{ 1: ['name', 'string'], 2: ['hostPort', 'int'], 3: ['containerPort', 'int'], 4: ['protocol', 'string'], 5: ['hostIP', 'string'] }]],
  7: ['env', [{ 1: ['name', 'string'], 2: ['value', 'string'] }]],
  8: ['resources', { 1: ['limits', 'quantitymap'], 2: ['requests', 'quantitymap'] }],
  9: ['volumeMounts', [{ 1: ['name', 'string'], 2: ['readOnly', 'bool'], 3: ['mountPath', 'string'], 4: ['subPath', 'string'], 5: ['mountPropagation', 'string'], 6: ['subPathExpr', 'string'] }]],
  13: ['terminationMessagePath', 'string'],
  14: ['imagePullPolicy', 'string'],
  16: ['stdin', 'bool'],
  17: ['stdinOnce', 'bool'],
  18: ['tty', 'bool'],
  20: ['terminationMessagePolicy', 'string'],
};

const podSpec: Message = {
  2: ['containers', [container]],
  3: ['restartPolicy', 'string'],
  4: ['terminationGracePeriodSeconds', 'int', true],
  5: ['activeDeadlineSeconds', 'int', true],
  6: ['dnsPolicy', 'string'],
  7: ['nodeSelector', 'map'],
  8: ['serviceAccountName', 'string'],
  9: ['serviceAccount', 'string'],
  10: ['nodeName', 'string'],
  11: ['hostNetwork', 'bool'],
  12: ['hostPID', 'bool'],
  13: ['hostIPC', 'bool'],
  15: ['imagePullSecrets', [{ 1: ['name', 'string'] }]],
  16: ['hostname', 'string'],
  17: ['subdomain', 'string'],
  19: ['schedulerName', 'string'],
  20: ['initContainers', [container]],
  21: ['automountServiceAccountToken', 'bool', true],
  24: ['priorityClassName', 'string'],
};

const podTemplateSpec: Message = { 1: ['metadata', objectMeta], 2: ['spec', podSpec] };

const deployment: Message = {
  1: ['metadata', objectMeta],
  2: [
    'spec',
    {
      1: ['replicas', 'int', true],
      2: ['selector', labelSelector],
      3: ['template', podTemplateSpec],
      4: ['strategy', { 1: ['type', 'string'], 2: ['rollingUpdate', { 1: ['maxUnavailable', 'intorstring'], 2: ['maxSurge', 'intorstring'] }] }],
      5: ['minReadySeconds', 'int'],
      6: ['revisionHistoryLimit', 'int', true],
      7: ['paused', 'bool'],
      9: ['progressDeadlineSeconds', 'int', true],
    },
  ],
  3: ['status', { 1: ['observedGeneration', 'int'], 2: ['replicas', 'int'], 3: ['updatedReplicas', 'int'], 4: ['availableReplicas', 'int'], 5: ['unavailableReplicas', 'int'], 7: ['readyReplicas', 'int'], 8: ['collisionCount', 'int', true], 9: ['terminatingReplicas', 'int', true] }],
};

const job: Message = {
  1: ['metadata', objectMeta],
  2: [
    'spec',
    {
      1: ['parallelism', 'int', true],
      2: ['completions', 'int', true],
      3: ['activeDeadlineSeconds', 'int', true],
      4: ['selector', labelSelector],
      5: ['manualSelector', 'bool', true],
      6: ['template', podTemplateSpec],
      7: ['backoffLimit', 'int', true],
      8: ['ttlSecondsAfterFinished', 'int', true],
      9: ['completionMode', 'string'],
      10: ['suspend', 'bool', true],
    },
  ],
  3: ['status', { 4: ['active', 'int'], 5: ['succeeded', 'int'], 6: ['failed', 'int'], 7: ['completedIndexes', 'string'], 9: ['ready', 'int', true], 11: ['terminating', 'int', true] }],
};

const service: Message = {
  1: ['metadata', objectMeta],
  2: [
    'spec',
    {
      1: ['ports', [{ 1: ['name', 'string'], 2: ['protocol', 'string'], 3: ['port', 'int'], 4: ['targetPort', 'intorstring'], 5: ['nodePort', 'int'], 6: ['appProtocol', 'string', true] }]],
      2: ['selector', 'map'],
      3: ['clusterIP', 'string'],
      4: ['type', 'string'],
      5: ['externalIPs', 'strings'],
      7: ['sessionAffinity', 'string'],
      8: ['loadBalancerIP', 'string'],
      10: ['externalName', 'string'],
      11: ['externalTrafficPolicy', 'string'],
      12: ['healthCheckNodePort', 'int'],
      13: ['publishNotReadyAddresses', 'bool'],
      18: ['clusterIPs', 'strings'],
    },
  ],
  3: ['status', { 1: ['loadBalancer', {}] }],
};

const messages: Record<string, Message> = {
  'v1/Service': service,
  'v1/ConfigMap': { 1: ['metadata', objectMeta], 2: ['data', 'map'], 3: ['binaryData', 'bytemap'], 4: ['immutable', 'bool', true] },
  'v1/Secret': { 1: ['metadata', objectMeta], 2: ['data', 'bytemap'], 3: ['type', 'string'], 4: ['stringData', 'map'], 5: ['immutable', 'bool', true] },
  'v1/Namespace': { 1: ['metadata', objectMeta], 2: ['spec', { 1: ['finalizers', 'strings'] }], 3: ['status', { 1: ['phase', 'string'] }] },
  'v1/ServiceAccount': {
    1: ['metadata', objectMeta],
    2: ['secrets', [{ 1: ['kind', 'string'], 2: ['namespace', 'string'], 3: ['name', 'string'], 4: ['uid', 'string'], 5: ['apiVersion', 'string'], 6: ['resourceVersion', 'string'], 7: ['fieldPath', 'string'] }]],
    3: ['imagePullSecrets', [{ 1: ['name', 'string'] }]],
    4: ['automountServiceAccountToken', 'bool', true],
  },
  'apps/v1/Deployment': deployment,
  'batch/v1/Job': job,
};

/** The message of `apiVersion`/`kind`, or undefined when the simulator cannot read that kind in protobuf. */
export function messageOf(apiVersion: string, kind: string): Message | undefined {
  return messages[`${apiVersion}/${kind}`];
}
