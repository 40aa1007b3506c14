/**
 * The network of deploy/: Services and the addresses that name them, NetworkPolicies, metrics reachability and mutual TLS between the services (deploy/README.md, docs/interface.md#health).
 * Rendered by test/helpers/deploy-render.ts.
 */
import { basename, dirname } from 'node:path';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import {
  DEPLOYMENTS,
  DMS_HTTP,
  DNS_PORT,
  CLAMAV,
  GATEWAY,
  GRPC_CALLERS,
  GRPC_SERVICES,
  METRICS_PORTS,
  MIGRATE_JOB,
  MONITORING_NAMESPACE,
  POSTGRES_PORT,
  REDIS_PORT,
  REDIS_SENTINEL_PORT,
  TLS_SECRET_NAME,
  TLS_VARIABLES,
} from './helpers/deploy-layout.ts';
import { eachLayer } from './helpers/deploy-render.ts';
import {
  app,
  containerPort,
  envOf,
  isMetricsService,
  labelSelectorMatches,
  parseAddress,
  podLabels,
  pods,
  selects,
  scrapeTargets,
  servicePorts,
} from './helpers/deploy-objects.ts';
import { egressAllowed, ingressAllowed, isMetricsRule, policiesFor, portAdmits } from './helpers/deploy-network-policy.ts';
import type { GrpcService } from './helpers/deploy-layout.ts';
import { databasePods } from './helpers/deploy-database.ts';

eachLayer('Services match the addresses: gateway 80 → 8080 ClusterIP, *_GRPC_ADDR = Service:port → container port', (t, rendered) => {
  const config = rendered.config().data;

  const gateway = rendered.one<IService>('Service', GATEWAY);
  const gatewayContainer = app(rendered.deployment(GATEWAY));
  t.is(gateway.spec?.type ?? 'ClusterIP', 'ClusterIP');
  t.true(selects(gateway.spec?.selector, podLabels(rendered.deployment(GATEWAY))), 'gateway Service selects the gateway pods');
  t.is(gateway.spec?.ports?.length, 1);
  t.is(gateway.spec?.ports?.[0]?.port, 80);
  t.is(containerPort(gatewayContainer, gateway.spec?.ports?.[0]?.targetPort), 8080);
  t.is(config.GATEWAY_PORT, '8080');

  for (const [name, variable] of Object.entries(GRPC_SERVICES)) {
    const { host, port } = parseAddress(config[variable]);
    t.is(host, name, `${variable} names the Service ${name}`);
    const service = rendered.one<IService>('Service', host);
    const deployment = rendered.deployment(name);
    t.true(selects(service.spec?.selector, podLabels(deployment)), `Service ${name} selects the ${name} pods`);
    for (const other of DEPLOYMENTS.filter((d) => d !== name)) {
      t.false(selects(service.spec?.selector, podLabels(rendered.deployment(other))), `Service ${name} does not select ${other}`);
    }
    const servicePort = service.spec?.ports?.find((p) => p.port === port);
    t.truthy(servicePort, `Service ${name} has port ${port} (${variable})`);
    t.is(containerPort(app(deployment), servicePort?.targetPort ?? port), port, `Service ${name} port ${port} reaches container port ${port}`);
  }
});

eachLayer(
  'the gRPC services admit their callers alone (the gateway; bpm-svc and dms-svc to core-svc), on their gRPC port (dms-svc: and its HTTP port)',
  (t, rendered) => {
    for (const name of Object.keys(GRPC_SERVICES) as GrpcService[]) {
      const allowed = servicePorts(rendered, name);
      const labels = podLabels(rendered.deployment(name));
      const callers = GRPC_CALLERS[name].map((caller) => podLabels(rendered.deployment(caller)));
      const others = DEPLOYMENTS.filter((d) => !GRPC_CALLERS[name].includes(d)).map((other) => ({ other, labels: podLabels(rendered.deployment(other)) }));
      // Prometheus' rule for the metrics port is checked apart (the metrics test below)
      const rules = policiesFor(rendered, labels, 'Ingress')
        .flatMap((policy) => policy.spec?.ingress ?? [])
        .filter((rule) => !isMetricsRule(rule));
      t.true(rules.length > 0, `${name}: an ingress policy allows something`);
      for (const rule of rules) {
        const peers = rule.from ?? [];
        t.true(peers.length > 0, `${name}: no rule admits every source`);
        for (const peer of peers) {
          t.is(peer.ipBlock, undefined, `${name}: no ipBlock peer`);
          t.is(peer.namespaceSelector, undefined, `${name}: no namespaceSelector peer`);
          t.true(
            callers.some((caller) => labelSelectorMatches(peer.podSelector, caller)),
            `${name}: the peer is one of ${GRPC_CALLERS[name].join(', ')}`,
          );
          for (const { other, labels: otherLabels } of others) t.false(labelSelectorMatches(peer.podSelector, otherLabels), `${name}: ${other} is not a peer`);
        }
        const ports = rule.ports?.map((p) => p.port) ?? [];
        t.true(ports.length > 0, `${name}: the rule names its ports (none would admit every port)`);
        for (const port of ports) t.true(allowed.includes(port as number), `${name}: port ${port} is one of ${allowed.join(', ')}`);
      }
      const container = app(rendered.deployment(name));
      for (const port of allowed)
        t.true(
          ingressAllowed(rendered, labels, container, { pod: podLabels(rendered.deployment(GATEWAY)) }, port),
          `${name}: the gateway may reach port ${port}`,
        );
      for (const caller of GRPC_CALLERS[name]) {
        t.true(
          ingressAllowed(rendered, labels, container, { pod: podLabels(rendered.deployment(caller)) }, allowed[0]!),
          `${name}: ${caller} may call its gRPC port`,
        );
      }
    }
  },
);

eachLayer('a default-deny NetworkPolicy isolates every pod for ingress and egress, and every pod has a policy that allows what it needs', (t, rendered) => {
  const policies = rendered.all<INetworkPolicy>('NetworkPolicy');
  const denials = policies.filter(
    (policy) =>
      Object.keys(policy.spec?.podSelector ?? { none: true }).length === 0 &&
      (['Ingress', 'Egress'] as const).every((type) => policy.spec?.policyTypes?.includes(type)) &&
      (policy.spec?.ingress ?? []).length === 0 &&
      (policy.spec?.egress ?? []).length === 0,
  );
  t.is(denials.length, 1, 'one policy selects every pod and allows nothing, in and out');
  for (const { name, labels } of pods(rendered)) {
    t.true(labelSelectorMatches(denials[0]?.spec?.podSelector, labels), `${name}: isolated by the default deny`);
    const allowing = policies.filter(
      (policy) => labelSelectorMatches(policy.spec?.podSelector, labels) && ((policy.spec?.ingress ?? []).length > 0 || (policy.spec?.egress ?? []).length > 0),
    );
    t.true(allowing.length > 0, `${name}: some policy allows it something`);
    // every pod resolves names (the Services', the datastores'); every pod but the gateway reaches PostgreSQL
    const dns = { namespace: 'kube-system', pod: { 'k8s-app': 'kube-dns' } };
    t.true(egressAllowed(rendered, labels, dns, DNS_PORT, 'UDP'), `${name}: DNS over UDP`);
    t.true(egressAllowed(rendered, labels, dns, DNS_PORT, 'TCP'), `${name}: DNS over TCP`);
    t.is(egressAllowed(rendered, labels, 'external', POSTGRES_PORT), name !== GATEWAY, `${name}: PostgreSQL (${POSTGRES_PORT})`);
    // dms-svc and its worker reach the object store on 443 where the files are in a bucket (components/s3-storage), nothing else does
    const toObjectStorage = (name === 'dms-svc' || name === 'dms-worker') && rendered.config().data.DMS_STORAGE === 's3';
    t.is(
      egressAllowed(rendered, labels, 'external', 443),
      toObjectStorage,
      `${name}: no other address outside (443)${toObjectStorage ? ' but the object store' : ''}`,
    );
  }
});

eachLayer("no NetworkPolicy lets the gateway out on PostgreSQL's port, to any address or pod", (t, rendered) => {
  const gateway = podLabels(rendered.deployment(GATEWAY));
  const egress = policiesFor(rendered, gateway, 'Egress');
  t.true(egress.length > 1, 'policies select the gateway for egress');
  for (const policy of egress) {
    for (const rule of policy.spec?.egress ?? []) {
      // a rule without ports admits every port, PostgreSQL's too
      t.false(portAdmits(rule.ports, POSTGRES_PORT, 'TCP'), `${policy.metadata?.name}: a rule admits TCP ${POSTGRES_PORT} (${JSON.stringify(rule)})`);
    }
  }
});

eachLayer('NetworkPolicies open the ports the processes use (from the ConfigMap) and no other', (t, rendered) => {
  const config = rendered.config().data;
  const gateway = podLabels(rendered.deployment(GATEWAY));
  const gatewayContainer = app(rendered.deployment(GATEWAY));
  const monitoring = { namespace: MONITORING_NAMESPACE, pod: {} };
  const elsewhere = { namespace: 'somewhere-else', pod: {} };
  // The gateway: public port from anywhere, management port from Prometheus only.
  t.true(
    ingressAllowed(rendered, gateway, gatewayContainer, elsewhere, Number(config.GATEWAY_PORT)),
    'GATEWAY_PORT from any namespace (the ingress controller)',
  );
  t.true(ingressAllowed(rendered, gateway, gatewayContainer, monitoring, Number(config.MANAGEMENT_PORT)), 'MANAGEMENT_PORT from monitoring');
  t.false(ingressAllowed(rendered, gateway, gatewayContainer, elsewhere, Number(config.MANAGEMENT_PORT)), 'MANAGEMENT_PORT from nowhere else');
  t.true(egressAllowed(rendered, gateway, 'external', REDIS_PORT), 'the gateway reaches Redis');
  t.true(egressAllowed(rendered, gateway, 'external', REDIS_SENTINEL_PORT), 'the gateway reaches the sentinels of REDIS_SENTINELS');
  // Out of the gateway: to each service, on exactly the ports of its addresses.
  for (const name of Object.keys(GRPC_SERVICES) as GrpcService[]) {
    const labels = podLabels(rendered.deployment(name));
    const container = app(rendered.deployment(name));
    for (const port of servicePorts(rendered, name)) {
      t.true(egressAllowed(rendered, gateway, { pod: labels }, port, 'TCP', container), `the gateway reaches ${name} on ${port}`);
      t.true(
        container.ports?.some((p) => p.containerPort === port),
        `${name} listens on ${port}`,
      );
    }
    t.false(
      egressAllowed(rendered, gateway, { pod: labels }, Number(config[METRICS_PORTS[name]]), 'TCP', container),
      `the gateway does not reach ${name}'s metrics port`,
    );
    t.false(egressAllowed(rendered, labels, 'external', REDIS_PORT), `${name}: no Redis`);
    t.false(egressAllowed(rendered, labels, 'external', REDIS_SENTINEL_PORT), `${name}: no Redis sentinel`);
    // Out of a service: core-svc's gRPC port for its callers, nothing of another service else.
    for (const other of Object.keys(GRPC_SERVICES) as GrpcService[]) {
      if (other === name) continue;
      const otherLabels = podLabels(rendered.deployment(other));
      const otherContainer = app(rendered.deployment(other));
      const grpcPort = parseAddress(config[GRPC_SERVICES[other]]).port;
      t.is(
        egressAllowed(rendered, labels, { pod: otherLabels }, grpcPort, 'TCP', otherContainer),
        GRPC_CALLERS[other].includes(name),
        `${name} → ${other}:${grpcPort}`,
      );
    }
    t.false(egressAllowed(rendered, labels, { pod: gateway }, Number(config.GATEWAY_PORT)), `${name} does not call the gateway`);
  }
  // Every port any policy names is a port some selected container has (no stale numbers).
  for (const { name, labels, container } of pods(rendered)) {
    for (const policy of policiesFor(rendered, labels, 'Ingress')) {
      for (const port of (policy.spec?.ingress ?? []).flatMap((rule) => rule.ports ?? [])) {
        t.truthy(containerPort(container, port.port), `${name}: ingress port ${port.port} of ${policy.metadata?.name} is a container port`);
      }
    }
  }
  for (const policy of rendered.all<INetworkPolicy>('NetworkPolicy')) {
    for (const rule of policy.spec?.egress ?? []) {
      for (const peer of rule.to ?? []) {
        if (peer.ipBlock) {
          for (const port of rule.ports ?? [])
            t.true(
              [POSTGRES_PORT, REDIS_PORT, REDIS_SENTINEL_PORT].includes(port.port as number) ||
                (policy.metadata?.name === CLAMAV && port.port === 443) ||
                (policy.metadata?.name === 'dms-svc-to-object-storage' && port.port === 443),
              `${policy.metadata?.name}: outside the cluster only PostgreSQL, Redis and its sentinels, clamd's signature mirror and dms-svc's object store (${port.port})`,
            );
        } else if (!peer.namespaceSelector) {
          const clamav = rendered.hasClamav() ? [{ labels: podLabels(rendered.deployment(CLAMAV)), container: app(rendered.deployment(CLAMAV)) }] : [];
          // the database's pods where the layer has it in the cluster (components/cloudnative-pg), as its operator labels them
          const targets = [...pods(rendered), ...clamav, ...databasePods(rendered)].filter((pod) => labelSelectorMatches(peer.podSelector, pod.labels));
          t.true(targets.length > 0, `${policy.metadata?.name}: its peer selects a pod of the platform`);
          for (const port of rule.ports ?? []) {
            t.true(
              targets.every((target) => containerPort(target.container, port.port) !== undefined),
              `${policy.metadata?.name}: port ${port.port} is a container port of every pod it reaches`,
            );
          }
        }
      }
    }
  }
  // The migrate Job accepts nothing and reaches PostgreSQL and DNS alone.
  const job = pods(rendered).find((pod) => pod.name === `Job ${MIGRATE_JOB}`)!;
  t.false(ingressAllowed(rendered, job.labels, job.container, { pod: gateway }, 8080), 'nothing reaches the migrate Job');
  t.false(egressAllowed(rendered, job.labels, 'external', REDIS_PORT), 'the migrate Job does not reach Redis');
  t.false(egressAllowed(rendered, job.labels, 'external', REDIS_SENTINEL_PORT), 'nor its sentinels');
  t.false(
    egressAllowed(rendered, job.labels, { pod: podLabels(rendered.deployment('core-svc')) }, 50051, 'TCP', app(rendered.deployment('core-svc'))),
    'nor a service',
  );
});

eachLayer('with GRPC_TLS_* set, all three are, and every Deployment mounts the Secret platform-grpc-tls where they point', (t, rendered) => {
  const config = rendered.config().data;
  const set = TLS_VARIABLES.filter((variable) => config[variable]);
  if (set.length === 0) {
    t.pass('plaintext gRPC');
    return;
  }
  t.deepEqual(set, [...TLS_VARIABLES], 'all three or none (a partial set refuses the start)');
  t.is(
    rendered.all<ISecret>('Secret').filter((secret) => secret.metadata?.name?.startsWith(TLS_SECRET_NAME)).length,
    0,
    `${TLS_SECRET_NAME} is the operator's, never rendered`,
  );
  for (const name of DEPLOYMENTS) {
    const deployment = rendered.deployment(name);
    const volume = deployment.spec?.template.spec?.volumes?.find((v) => v.secret?.secretName === TLS_SECRET_NAME);
    t.truthy(volume, `${name}: a volume of the Secret ${TLS_SECRET_NAME}`);
    const mount = app(deployment).volumeMounts?.find((m) => m.name === volume?.name);
    t.true(mount?.readOnly, `${name}: mounted read-only`);
    for (const variable of TLS_VARIABLES) {
      const path = config[variable] ?? '';
      t.is(dirname(path), mount?.mountPath ?? '(no mount)', `${name}: ${variable} (${path}) is in the mount`);
      // the keys cert-manager writes, which the README's kubectl create secret uses too
      t.true(['ca.crt', 'tls.crt', 'tls.key'].includes(basename(path)), `${variable} names a key of the Secret`);
    }
  }
});

eachLayer("gateway reaches dms-svc's HTTP port (DMS_HTTP_ADDR) through the Service; dms-svc listens on it", (t, rendered) => {
  const { service, variable, portName } = DMS_HTTP;
  const gatewaySees = envOf(rendered, GATEWAY, variable);
  t.truthy(gatewaySees, `the gateway's environment has ${variable} (without it the gateway dials 127.0.0.1:50054)`);
  const { host, port } = parseAddress(gatewaySees);
  t.is(host, service, `the gateway's ${variable} names the Service ${service}`);
  t.not(port, parseAddress(envOf(rendered, service, GRPC_SERVICES[service])).port, 'the HTTP port is not the gRPC port');

  // dms-svc binds all interfaces on the port of its own DMS_HTTP_ADDR.
  const dmsSees = envOf(rendered, service, variable);
  t.truthy(dmsSees, `dms-svc's environment has ${variable}`);
  const container = app(rendered.deployment(service));
  t.is(containerPort(container, portName), parseAddress(dmsSees).port, `dms-svc's container port ${portName} is the port of its ${variable}`);
  t.is(parseAddress(dmsSees).port, port, 'dms-svc listens on the port the gateway dials');

  const dms = rendered.one<IService>('Service', host);
  t.true(selects(dms.spec?.selector, podLabels(rendered.deployment(service))), `Service ${host} selects the dms-svc pods`);
  const servicePort = dms.spec?.ports?.find((p) => p.port === port);
  t.truthy(servicePort, `Service ${host} exposes port ${port} (${variable})`);
  t.truthy(servicePort?.name, `Service ${host} port ${port} is named`);
  t.is(containerPort(container, servicePort?.targetPort ?? port), port, `Service ${host} port ${port} reaches container port ${port}`);
  // Fenced: reached only inside the cluster, through a ClusterIP Service.
  t.is(dms.spec?.type ?? 'ClusterIP', 'ClusterIP', `Service ${host} is ClusterIP`);
});

eachLayer("only the gateway may reach dms-svc's HTTP port (DMS_HTTP_ADDR)", (t, rendered) => {
  const { service, variable } = DMS_HTTP;
  const { port } = parseAddress(rendered.config().data[variable]);
  const labels = podLabels(rendered.deployment(service));
  const gatewayLabels = podLabels(rendered.deployment(GATEWAY));
  const applying = rendered
    .all<INetworkPolicy>('NetworkPolicy')
    .filter((policy) => selects(policy.spec?.podSelector?.matchLabels, labels) && (policy.spec?.policyTypes ?? ['Ingress']).includes('Ingress'));
  t.true(applying.length > 0, `${service}: an ingress NetworkPolicy selects its pods`);
  // Every rule that admits the port: one without ports admits every port.
  const admitting = applying
    .flatMap((policy) => policy.spec?.ingress ?? [])
    .filter((rule) => !rule.ports || rule.ports.some((p) => p.port === port || p.port === undefined));
  t.true(admitting.length > 0, `${service}: some rule admits port ${port}`);
  for (const rule of admitting) {
    const peers = rule.from ?? [];
    t.true(peers.length > 0, `${service}: no rule admits every source to port ${port}`);
    for (const peer of peers) {
      t.is(peer.ipBlock, undefined, `${service}: no ipBlock peer on port ${port}`);
      t.is(peer.namespaceSelector, undefined, `${service}: no namespaceSelector peer on port ${port}`);
      t.true(selects(peer.podSelector?.matchLabels, gatewayLabels), `${service}: the peer on port ${port} is the gateway`);
      for (const other of DEPLOYMENTS.filter((d) => d !== GATEWAY)) {
        t.false(selects(peer.podSelector?.matchLabels, podLabels(rendered.deployment(other))), `${service}: ${other} may not reach port ${port}`);
      }
    }
  }
});

eachLayer(
  'each service serves /metrics on its container port metrics (*_METRICS_PORT), scraped once (annotations, or a ServiceMonitor with the monitoring component), reachable from the monitoring namespace only and through no Service but a headless metrics one; the gateway on its management port',
  (t, rendered) => {
    const config = rendered.config().data;
    const scraped = (name: string, port: number) => {
      const { annotations, monitored } = scrapeTargets(rendered, name);
      // both would scrape every pod twice, and double every sum
      t.is((annotations ? 1 : 0) + monitored.length, 1, `${name}: scraped exactly once (${JSON.stringify({ annotations, monitored })})`);
      if (annotations) {
        t.is(annotations.port, String(port), `${name}: scrape port`);
        t.is(annotations.path, '/metrics', `${name}: scrape path`);
      }
      for (const target of monitored) {
        t.is(target.containerPort, port, `${name}: ServiceMonitor ${target.monitor} scrapes port ${port} through ${target.service}`);
        t.is(target.path, '/metrics', `${name}: ServiceMonitor ${target.monitor} path`);
      }
    };
    const exposedOnlyForMetrics = (name: string, port: number) => {
      const container = app(rendered.deployment(name));
      for (const service of rendered.all<IService>('Service')) {
        if (!selects(service.spec?.selector, podLabels(rendered.deployment(name)))) continue;
        for (const servicePort of service.spec?.ports ?? []) {
          if (containerPort(container, servicePort.targetPort ?? servicePort.port) !== port) continue;
          t.true(isMetricsService(service), `only a headless metrics Service exposes ${name}'s port ${port}, not ${service.metadata?.name}`);
        }
      }
    };
    scraped(GATEWAY, Number(config.MANAGEMENT_PORT));
    exposedOnlyForMetrics(GATEWAY, Number(config.MANAGEMENT_PORT));
    t.not(Number(config.MANAGEMENT_PORT), Number(config.GATEWAY_PORT), 'never the public port');
    const policies = rendered.all<INetworkPolicy>('NetworkPolicy');
    for (const [name, variable] of Object.entries(METRICS_PORTS)) {
      const port = Number(config[variable]);
      const container = app(rendered.deployment(name));
      t.true(Number.isInteger(port) && port > 0, `${variable} is set`);
      t.is(containerPort(container, 'metrics'), port, `${name}: container port metrics is ${variable}`);
      // a worker has no gRPC port (test/deploy-workloads.test.ts: its only port is this one)
      const grpc = GRPC_SERVICES[name as GrpcService] as string | undefined;
      if (grpc) t.not(port, parseAddress(config[grpc]).port, `${name}: not the gRPC port`);
      scraped(name, port);
      exposedOnlyForMetrics(name, port);
      const rules = policies
        .filter((policy) => selects(policy.spec?.podSelector?.matchLabels, podLabels(rendered.deployment(name))))
        .flatMap((policy) => policy.spec?.ingress ?? [])
        .filter(isMetricsRule);
      t.is(rules.length, 1, `${name}: one rule admits Prometheus to its metrics port`);
      for (const peer of rules[0]?.from ?? []) {
        t.deepEqual(
          peer.namespaceSelector?.matchLabels,
          { 'kubernetes.io/metadata.name': MONITORING_NAMESPACE },
          `${name}: from the ${MONITORING_NAMESPACE} namespace`,
        );
        t.is(peer.ipBlock, undefined);
      }
      t.true((rules[0]?.from?.length ?? 0) > 0, `${name}: the rule does not admit every source`);
    }
  },
);
