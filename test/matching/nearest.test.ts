import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { match } from '../../src/matching/index.js';
import { medicArgs } from '../support/medic-process.js';

/**
 * When the matcher abstains it may name entries worth explaining. They must share real evidence with
 * the paste: a signature of the entry, or a context text that names a thing of the platform. A word
 * any paste may contain (memory, kubelet, cluster, registry) is not a reason to send a person there.
 */
function nearest(text: string): readonly string[] {
  const r = match(text);
  expect(r.verdict).toBe('no-match');
  return r.verdict === 'no-match' ? r.nearest : [];
}

const oomKilled = `Name:             billing-api-7c9d8f6b5-x2kqp
Namespace:        payments
Node:             ip-10-0-3-17.ec2.internal/10.0.3.17
Containers:
  billing-api:
    Image:          ghcr.io/acme/billing-api:2.8.1
    State:          Running
      Started:      Tue, 04 Mar 2025 09:24:51 +0000
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
    Ready:          True
    Restart Count:  4
    Limits:
      cpu:     500m
      memory:  512Mi
    Requests:
      cpu:        250m
      memory:     256Mi
Events:
  Type     Reason   Age                 From     Message
  ----     ------   ----                ----     -------
  Warning  BackOff  2m (x12 over 10m)   kubelet  Back-off restarting failed container billing-api in pod billing-api-7c9d8f6b5-x2kqp_payments`;

const terraform = `module.eks.aws_eks_node_group.workers: Creating...
╷
│ Error: creating EKS Node Group (prod:workers): operation error EKS: CreateNodegroup, https response error StatusCode: 409, ResourceInUseException: NodeGroup already exists with name workers and cluster name prod
│
│   with module.eks.aws_eks_node_group.workers,
│   on .terraform/modules/eks/main.tf line 88, in resource "aws_eks_node_group" "workers":
│   88: resource "aws_eks_node_group" "workers" {
│
╵
Error: Terraform exited with code 1.`;

const dnsToDatabase = '2025-03-04T09:21:07Z ERROR orders: failed to connect to postgres: dial tcp: lookup postgres.prod.svc.cluster.local on 10.96.0.10:53: no such host';

/** `platform-medic match` as a person runs it, the paste on standard input. */
function matchCommand(paste: string): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, medicArgs('match'), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PLATFORM_MEDIC_CONFIG: '' },
    input: paste,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout };
}

const dnsToRegistry = 'Error response from daemon: Get "https://registry.acme.io/v2/": dial tcp: lookup registry.acme.io on 127.0.0.53:53: no such host';

describe('the entries offered when the matcher abstains', () => {
  it('given an OOMKilled container, offers none: cpu, memory and kubelet are in every pod description', () => {
    expect(nearest(oomKilled)).toEqual([]);
  });

  it('given a Terraform error, offers none: "module" and "cluster" are not the GitOps pipeline', () => {
    expect(nearest(terraform)).toEqual([]);
  });

  it('given a DNS failure, offers none: a host named postgres or registry is not the database or registry entry', () => {
    expect(nearest(dnsToDatabase)).toEqual([]);
    expect(nearest(dnsToRegistry)).toEqual([]);
  });

  it('offers an entry whose evidence was there but ruled out: exit status 128 beside a DNS failure is still worth explaining', () => {
    expect(nearest("fatal: unable to access 'https://github.com/acme/app.git/': Could not resolve host: github.com\nexit status 128")).toEqual(['commits-exit-128']);
  });

  it('offers an entry when the paste names one of its components, and only that entry', () => {
    expect(nearest('time="2025-03-04T09:21:07Z" level=warning msg="argocd-dex-server restarted 3 times in the last hour"')).toEqual(['sso-login']);
    expect(nearest('nginx.ingress.kubernetes.io/proxy-body-size is set to 1m on our ingress')).toEqual(['upload-too-large']);
  });

  it('on the command line, an OOMKilled pod gets a plain no-match, and a ruled-out entry is still named', { timeout: 120_000 }, () => {
    expect(matchCommand(oomKilled)).toEqual({ code: 1, out: 'no match: no catalogued remedy for this\n' });
    expect(matchCommand("fatal: unable to access 'https://github.com/acme/app.git/': Could not resolve host: github.com\nexit status 128")).toEqual({
      code: 1,
      out: 'no match: no catalogued remedy for this\nnearest entries (explain only): commits-exit-128\n',
    });
  });
});
