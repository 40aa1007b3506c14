/**
 * NetworkPolicies evaluated as Kubernetes enforces them, over a rendered layer (deploy-render.ts):
 * which policies select a pod, whether a peer and a port pass a rule, and so whether a connection
 * between two pods (or to an address outside the cluster) is allowed. For test/deploy-network.test.ts
 * and the components' tests that check who may reach what.
 */
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import type { INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPort';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { type Rendered } from './deploy-render.ts';
import { containerPort, labelSelectorMatches } from './deploy-objects.ts';

/** The NetworkPolicies that select pods with `labels` for `direction`. */
export function policiesFor(rendered: Rendered, labels: Record<string, string>, direction: 'Ingress' | 'Egress'): INetworkPolicy[] {
  return rendered
    .all<INetworkPolicy>('NetworkPolicy')
    .filter((policy) => labelSelectorMatches(policy.spec?.podSelector, labels))
    .filter((policy) =>
      (policy.spec?.policyTypes ?? (direction === 'Ingress' || policy.spec?.egress ? ['Ingress', 'Egress'] : ['Ingress'])).includes(direction),
    );
}

export type Peer = { pod: Record<string, string> } | { namespace: string; pod?: Record<string, string> } | 'external';

/** Whether a policy peer takes in `peer`: a pod of this namespace, a pod of another namespace, or an address outside the cluster. */
export function peerAdmits(rule: INetworkPolicyPeer, peer: Peer): boolean {
  if (peer === 'external') return rule.ipBlock !== undefined && (rule.ipBlock.except ?? []).length === 0 && ['0.0.0.0/0', '::/0'].includes(rule.ipBlock.cidr);
  if (rule.ipBlock) return false;
  if ('namespace' in peer) {
    return (
      labelSelectorMatches(rule.namespaceSelector, { 'kubernetes.io/metadata.name': peer.namespace }) &&
      (!rule.podSelector || labelSelectorMatches(rule.podSelector, peer.pod ?? {}))
    );
  }
  return rule.namespaceSelector === undefined && labelSelectorMatches(rule.podSelector, peer.pod);
}

/** Whether a rule's ports take in `port` (a number, or the name of a container port of `container`). */
export function portAdmits(ports: INetworkPolicyPort[] | undefined, port: number, protocol: string, container?: IContainer): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some(
    (p) =>
      (p.protocol ?? 'TCP') === protocol && (p.port === undefined || p.port === port || (container !== undefined && containerPort(container, p.port) === port)),
  );
}

/** Whether the pod `labels` may open a connection to `peer` on `port`. */
export function egressAllowed(
  rendered: Rendered,
  labels: Record<string, string>,
  peer: Peer,
  port: number,
  protocol = 'TCP',
  peerContainer?: IContainer,
): boolean {
  return policiesFor(rendered, labels, 'Egress').some((policy) =>
    (policy.spec?.egress ?? []).some(
      (rule) =>
        (rule.to === undefined || rule.to.length === 0 || rule.to.some((to) => peerAdmits(to, peer))) && portAdmits(rule.ports, port, protocol, peerContainer),
    ),
  );
}

/** Whether the pod `labels` (whose container is `container`) accepts a connection from `peer` on `port`. */
export function ingressAllowed(rendered: Rendered, labels: Record<string, string>, container: IContainer, peer: Peer, port: number): boolean {
  return policiesFor(rendered, labels, 'Ingress').some((policy) =>
    (policy.spec?.ingress ?? []).some(
      (rule) =>
        (rule.from === undefined || rule.from.length === 0 || rule.from.some((from) => peerAdmits(from, peer))) &&
        portAdmits(rule.ports, port, 'TCP', container),
    ),
  );
}

/** A NetworkPolicy rule that admits Prometheus to a metrics port, and nothing else. */
export function isMetricsRule(rule: { ports?: { port?: number | string }[] }): boolean {
  return (rule.ports?.length ?? 0) > 0 && (rule.ports ?? []).every((p) => p.port === 'metrics');
}
