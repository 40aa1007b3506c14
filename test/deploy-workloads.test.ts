/**
 * The workloads of deploy/: Deployments and the migrate Job, their image, command, resources, hardening, probes, storage, scaling and rollouts (deploy/README.md, docs/interface.md#running, docs/interface.md#health).
 * Rendered by test/helpers/deploy-render.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { IService } from 'kubernetes-models/v1/Service';
import {
  CLAMAV,
  DEPLOYMENTS,
  entryOf,
  GATEWAY,
  WORKERS,
  GRPC_SERVICES,
  METRICS_PORTS,
  MIGRATE_JOB,
  POSTGRES_PORT,
  REDIS_PORT,
  ROOT,
  OWNER_SECRET_NAME,
  SECRET_NAME,
  SERVING_SECRET_NAME,
  TLS_VARIABLES,
  SECRET_KEYS,
} from './helpers/deploy-layout.ts';
import { eachLayer, only, type Rendered } from './helpers/deploy-render.ts';
import {
  app,
  containerPort,
  forValidation,
  isMetricsService,
  labelSelectorMatches,
  parseAddress,
  podLabels,
  probePort,
  selects,
} from './helpers/deploy-objects.ts';
import { customResourceErrors } from './helpers/deploy-crds.ts';
import { egressAllowed } from './helpers/deploy-network-policy.ts';
import type { GrpcService, Worker } from './helpers/deploy-layout.ts';
import type { K8sObject } from './helpers/deploy-render.ts';

// ---------------------------------------------------------------------------------------------
// Every layer

eachLayer("every rendered object passes its Kubernetes API schema (a custom resource: its CRD's, helpers/deploy-crds.ts)", async (t, rendered) => {
  for (const object of rendered.objects) {
    const where = `${object.kind} ${object.metadata?.name}`;
    const custom = customResourceErrors(object);
    if (custom) {
      t.deepEqual(custom, [], where);
      continue;
    }
    const module = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`)) as Record<string, new (data: unknown) => { validate(): void }>;
    const Model = module[object.kind];
    if (!Model) {
      t.fail(`${where}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    t.notThrows(() => new Model(forValidation(object)).validate(), where);
  }
});

eachLayer(
  'the seven Deployments run one image, set by kustomize, with node --import <telemetry register> <svc>/src/main.ts or a worker entry',
  (t, rendered) => {
    t.deepEqual(
      rendered
        .all<IDeployment>('Deployment')
        .map((d) => d.metadata?.name)
        // clamd runs its own image (test/deploy-clamav.test.ts)
        .filter((name) => name !== CLAMAV)
        .sort(),
      [...DEPLOYMENTS].sort(),
    );
    const images = new Set<string | undefined>();
    for (const name of DEPLOYMENTS) {
      const deployment = rendered.deployment(name);
      const container = app(deployment);
      images.add(container.image);
      // the telemetry register module first: tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/adr/0092-tracing-with-opentelemetry-on-only.md)
      t.deepEqual(container.command, ['node', '--import', './libs/kit/src/telemetry/register.ts', entryOf(name)], name);
      t.true(selects(deployment.spec?.selector.matchLabels, podLabels(deployment)), `${name}: selector matches its pods`);
    }
    t.is(images.size, 1, 'one image for all Deployments');
    const [image] = [...images];
    // `platform` alone would mean the kustomize `images` entry did not apply.
    t.regex(image ?? '', /(^|\/)platform:[\w][\w.-]*$/, `image ${image} is the platform image with an explicit tag`);
    t.notRegex(image ?? '', /:latest$/, 'no floating latest tag');
  },
);

eachLayer('every Deployment and the migrate Job have resource requests and limits', (t, rendered) => {
  for (const { name, container } of rendered.workloads()) {
    const { resources } = container;
    for (const bound of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) {
        t.truthy(resources?.[bound]?.[resource], `${name}: resources.${bound}.${resource}`);
      }
    }
  }
});

eachLayer('every pod runs hardened: non-root, read-only root, no capabilities, RuntimeDefault seccomp, 30 s grace', (t, rendered) => {
  for (const { name, pod, container } of rendered.workloads()) {
    const security = container.securityContext;
    t.true(pod?.securityContext?.runAsNonRoot ?? security?.runAsNonRoot, `${name}: runAsNonRoot`);
    t.not(security?.runAsNonRoot, false, `${name}: the container does not undo runAsNonRoot`);
    const uid = security?.runAsUser ?? pod?.securityContext?.runAsUser;
    t.true(uid === undefined || uid > 0, `${name}: runAsUser is not root`);
    t.true(security?.readOnlyRootFilesystem, `${name}: readOnlyRootFilesystem`);
    t.false(security?.allowPrivilegeEscalation, `${name}: allowPrivilegeEscalation false`);
    t.not(security?.privileged, true, `${name}: not privileged`);
    t.true(security?.capabilities?.drop?.includes('ALL'), `${name}: drops ALL capabilities`);
    t.deepEqual(security?.capabilities?.add ?? [], [], `${name}: adds no capability`);
    t.is((security?.seccompProfile ?? pod?.securityContext?.seccompProfile)?.type, 'RuntimeDefault', `${name}: seccomp RuntimeDefault`);
    t.is(pod?.terminationGracePeriodSeconds, 30, `${name}: terminationGracePeriodSeconds`);
  }
});

eachLayer(
  "the migrate Job runs what `npm run migrate -- up` runs, with the Deployments' image, unprobed, retried a little and bounded in time",
  (t, rendered) => {
    t.deepEqual(
      rendered.all<IJob>('Job').map((job) => job.metadata?.name),
      [MIGRATE_JOB],
      'one Job',
    );
    const job = rendered.job(MIGRATE_JOB);
    const pod = job.spec?.template.spec;
    const container = only(pod?.containers, `Job ${MIGRATE_JOB}`);
    const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.migrate;
    t.deepEqual(container.command, [...(script ?? '').split(' '), 'up'], `the command is package.json's migrate script (${script}) with up`);
    t.is(container.image, app(rendered.deployment(GATEWAY)).image, 'the image of the release the Deployments run');
    t.deepEqual(pod?.initContainers ?? [], []);
    // Nothing to probe; a liveness probe would kill a migrator that waits for another's lock.
    for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) t.is(container[kind], undefined, kind);
    t.is(pod?.restartPolicy, 'Never', 'a failed run leaves its pod (and log) behind; the Job retries in a new one');
    t.true((job.spec?.backoffLimit ?? 6) <= 3, 'a failing migration is not retried for long');
    t.true((job.spec?.activeDeadlineSeconds ?? 0) > 0, 'a run waiting for a lock nobody releases ends');
    t.is(job.spec?.parallelism ?? 1, 1);
    t.is(job.spec?.completions ?? 1, 1);
    t.false(pod?.automountServiceAccountToken ?? true, 'no API token in the pod');
  },
);

eachLayer('no container carries a secret value inline: the migrate Job takes DATABASE_URL from the Secret by reference', (t, rendered) => {
  const secrets = rendered.all<ISecret>('Secret').map((secret) => secret.metadata?.name);
  const cluster = rendered.all<K8sObject>('Cluster')[0]?.metadata?.name;
  for (const { name, container } of rendered.workloads()) {
    for (const entry of container.env ?? []) {
      if (![...SECRET_KEYS, 'ADMIN_PASSWORD'].includes(entry.name)) continue;
      if (entry.name.startsWith('DATABASE_') && cluster && entry.value !== undefined) {
        // with the database in the cluster: the pooler's or the primary's address, the credentials
        // referred to ($(VAR)), each an earlier entry from the operator's Secret or the serving
        // role's (components/cloudnative-pg)
        const references = [...entry.value.matchAll(/\$\((\w+)\)/g)].map((match) => match[1]);
        t.regex(entry.value.replace(/\$\(\w+\)/g, ''), /^postgresql:\/\/:?@[a-z0-9-]+:5432\/platform$/, `${name}: ${entry.name} holds nothing but references`);
        for (const reference of references) {
          const index = (container.env ?? []).findIndex((other) => other.name === reference);
          t.true(index >= 0 && index < (container.env ?? []).indexOf(entry), `${name}: ${reference} is set before ${entry.name}`);
          t.true(
            [`${cluster}-app`, SERVING_SECRET_NAME].includes(container.env?.[index]?.valueFrom?.secretKeyRef?.name ?? ''),
            `${name}: ${reference} from the operator's Secret or the serving role's`,
          );
        }
        continue;
      }
      t.is(entry.value, undefined, `${name}: ${entry.name} has no inline value`);
      t.truthy(entry.valueFrom?.secretKeyRef, `${name}: ${entry.name} comes from a Secret`);
    }
  }
  const job = only(rendered.job(MIGRATE_JOB).spec?.template.spec?.containers, `Job ${MIGRATE_JOB}`);
  const url = job.env?.find((entry) => entry.name === 'DATABASE_URL');
  const owner = job.env?.find((entry) => entry.name === 'DATABASE_OWNER_URL')?.valueFrom?.secretKeyRef;
  if (cluster) {
    // as the owner, the application role, straight to the primary; DATABASE_URL only names the serving role
    t.deepEqual(owner, { name: `${cluster}-app`, key: 'uri' }, "the primary's address in the operator's Secret, past the pooler");
    t.regex(url?.value ?? '', /^postgresql:\/\/\$\(DATABASE_USER\)@/, 'the serving role by name, without its password');
  } else {
    const ref = url?.valueFrom?.secretKeyRef;
    t.not(ref?.optional, true, 'required: without it the Job waits for the Secret');
    if (secrets.length === 0) t.deepEqual(ref, { name: SECRET_NAME, key: 'DATABASE_URL' }, `the operator's Secret ${SECRET_NAME}`);
    else {
      t.is(ref?.key, 'DATABASE_URL');
      t.true(secrets.includes(ref?.name), 'the generated Secret');
    }
    // the owner's Secret of its own, which no service reads; absent, one role for all
    t.deepEqual(owner, { name: OWNER_SECRET_NAME, key: 'DATABASE_OWNER_URL', optional: true });
  }
  t.deepEqual(job.envFrom ?? [], [], 'it reads the database URLs alone, not every secret');
});

eachLayer('gateway probes /api/health on its management port (MANAGEMENT_PORT), which no Service exposes but a headless metrics one', (t, rendered) => {
  const container = app(rendered.deployment(GATEWAY));
  const config = rendered.config().data;
  const port = Number(config.GATEWAY_PORT);
  const management = Number(config.MANAGEMENT_PORT);
  t.is(containerPort(container, 'http'), port, 'container port http is GATEWAY_PORT');
  t.is(containerPort(container, 'management'), management, 'container port management is MANAGEMENT_PORT');
  t.not(management, port);
  for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
    // Probes on the public port would share the node address's public rate limit (60/min).
    t.is(container[kind]?.httpGet?.path, '/api/health', kind);
    t.is(probePort(container, container[kind]), management, `${kind} on the management port`);
  }
  for (const service of rendered.all<IService>('Service')) {
    if (isMetricsService(service)) continue; // headless, for Prometheus (deploy-network.test.ts)
    for (const servicePort of service.spec?.ports ?? []) {
      t.not(containerPort(container, servicePort.targetPort), management, `Service ${service.metadata?.name} does not expose the management port`);
    }
  }
});

eachLayer(
  'each gRPC service is probed on its own: the native gRPC probe on the port of its address, or GET /health on its metrics port where gRPC wants client certificates',
  (t, rendered) => {
    const config = rendered.config().data;
    const tls = TLS_VARIABLES.some((variable) => config[variable]);
    for (const [name, variable] of Object.entries(GRPC_SERVICES)) {
      const container = app(rendered.deployment(name));
      const { port } = parseAddress(config[variable]);
      t.truthy(
        container.ports?.some((p) => p.containerPort === port),
        `${name}: listens on ${port} (${variable})`,
      );
      for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
        const probe = container[kind];
        if (tls) {
          // the kubelet's gRPC probe has no client certificate: it would fail, and the pods never be ready
          t.is(probe?.grpc, undefined, `${name}: ${kind} is no gRPC probe while GRPC_TLS_* is set`);
          t.is(probe?.httpGet?.path, '/health', `${name}: ${kind} asks GET /health`);
          t.is(probePort(container, probe), Number(config[METRICS_PORTS[name as GrpcService]]), `${name}: ${kind} on the metrics port`);
        } else {
          t.truthy(probe?.grpc, `${name}: ${kind} uses the native gRPC probe`);
          t.is(probePort(container, probe), port, `${name}: ${kind} port`);
        }
      }
    }
  },
);

/**
 * Files in a bucket (components/s3-storage, DMS_STORAGE=s3), the resumable uploads in progress too
 * (docs/adr/0145-resumable-uploads-in-the-bucket.md): no claim is made, and neither dms-svc nor its
 * worker mounts a files volume.
 */
function checkNoFilesVolume(t: ExecutionContext, rendered: Rendered): void {
  const config = rendered.config().data;
  t.is(config.DMS_STORAGE, 's3');
  t.false(
    rendered.all<IPersistentVolumeClaim>('PersistentVolumeClaim').some((claim) => claim.metadata?.name === 'platform-files'),
    'no files claim: nothing is kept on a shared folder',
  );
  for (const workload of [...rendered.all<K8sObject>('Deployment'), ...rendered.all<K8sObject>('CronJob')]) {
    t.false(JSON.stringify(workload).includes('"claimName":"platform-files"'), `${workload.metadata?.name}: mounts no files claim`);
  }
  for (const name of ['dms-svc', 'dms-worker']) {
    const deployment = rendered.deployment(name);
    t.is(
      app(deployment).volumeMounts?.find((m) => m.mountPath === config.DMS_STORAGE_DIR),
      undefined,
      `${name}: nothing mounted at DMS_STORAGE_DIR`,
    );
    t.false(
      (deployment.spec?.template.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim),
      `${name}: no PersistentVolumeClaim among its volumes`,
    );
  }
}

eachLayer('dms-svc keeps files on its PersistentVolumeClaim at DMS_STORAGE_DIR (with files in a bucket: none); DATA_DIR is writable', (t, rendered) => {
  const config = rendered.config().data;
  const dms = rendered.deployment('dms-svc');
  if (config.DMS_STORAGE === 's3') checkNoFilesVolume(t, rendered);
  else {
    const mount = app(dms).volumeMounts?.find((m) => m.mountPath === config.DMS_STORAGE_DIR);
    t.truthy(mount, 'a volume is mounted at DMS_STORAGE_DIR');
    t.not(mount?.readOnly, true);
    const volume = dms.spec?.template.spec?.volumes?.find((v) => v.name === mount?.name);
    const claim = volume?.persistentVolumeClaim?.claimName;
    t.truthy(claim, 'that volume is a PersistentVolumeClaim');
    const pvc = rendered.one<IPersistentVolumeClaim>('PersistentVolumeClaim', claim ?? '');
    t.truthy(pvc.spec?.resources?.requests?.storage, 'the claim requests storage');
  }

  // The root filesystem is read-only, so DATA_DIR has to be a writable mount; and the mount itself,
  // since a folder below it does not exist when the pod starts, and the gateway's diskSpace health
  // component (statfs of DATA_DIR) would then be DOWN and the gateway never ready.
  for (const name of DEPLOYMENTS) {
    const mounts = app(rendered.deployment(name)).volumeMounts ?? [];
    const dataDir = config.DATA_DIR ?? '';
    t.true(
      mounts.some((m) => m.readOnly !== true && m.mountPath.replace(/\/$/, '') === dataDir.replace(/\/$/, '')),
      `${name}: DATA_DIR ${dataDir} is a writable volume mount`,
    );
  }
});

eachLayer("every Deployment: its replica count is its HorizontalPodAutoscaler's, at least 2 (the Deployment sets none), on CPU", (t, rendered) => {
  const scalers = rendered.all<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
  t.is(scalers.length, DEPLOYMENTS.length, 'one autoscaler per Deployment, no other');
  for (const name of DEPLOYMENTS) {
    const deployment = rendered.deployment(name);
    // a count in the manifest would reset the autoscaler's at every apply (deploy/README.md, "Replicas")
    t.is(deployment.spec?.replicas, undefined, `${name}: no replicas in the manifest`);
    const own = scalers.filter((hpa) => hpa.spec?.scaleTargetRef.kind === 'Deployment' && hpa.spec.scaleTargetRef.name === name);
    t.is(own.length, 1, `${name}: one HorizontalPodAutoscaler`);
    const spec = own[0]?.spec;
    t.is(spec?.scaleTargetRef.apiVersion, 'apps/v1', `${name}: targets apps/v1`);
    t.true((spec?.minReplicas ?? 1) >= 2, `${name}: never fewer than 2 replicas (minReplicas ${spec?.minReplicas})`);
    t.true((spec?.maxReplicas ?? 0) >= (spec?.minReplicas ?? 1), `${name}: maxReplicas ≥ minReplicas`);
    const cpu = spec?.metrics?.find((metric) => metric.type === 'Resource' && metric.resource?.name === 'cpu');
    t.is(cpu?.resource?.target.type, 'Utilization', `${name}: scales on CPU utilisation`);
    t.truthy(app(deployment).resources?.requests?.cpu, `${name}: a CPU request to measure utilisation against`);
  }
});

eachLayer('every Deployment: one PodDisruptionBudget selects exactly its pods and lets one go while keeping at least one', (t, rendered) => {
  // clamd's own budget is test/deploy-clamav.test.ts's
  const budgets = rendered.all<IPodDisruptionBudget>('PodDisruptionBudget').filter((pdb) => pdb.metadata?.name !== CLAMAV);
  t.is(budgets.length, DEPLOYMENTS.length, 'one budget per Deployment, no other');
  for (const name of DEPLOYMENTS) {
    const deployment = rendered.deployment(name);
    const own = budgets.filter((pdb) => labelSelectorMatches(pdb.spec?.selector, podLabels(deployment)));
    t.is(own.length, 1, `${name}: one PodDisruptionBudget`);
    const spec = own[0]?.spec;
    for (const other of DEPLOYMENTS.filter((d) => d !== name)) {
      t.false(labelSelectorMatches(spec?.selector, podLabels(rendered.deployment(other))), `${name}'s budget does not select ${other}`);
    }
    t.false(
      labelSelectorMatches(spec?.selector, rendered.job(MIGRATE_JOB).spec?.template.metadata?.labels ?? {}),
      `${name}'s budget does not select the migrate Job`,
    );
    t.is(spec?.unhealthyPodEvictionPolicy, 'AlwaysAllow', `${name}: an unready pod never blocks a node drain`);
    // The fewest replicas there may be: the autoscaler's minimum.
    const scaler = rendered
      .all<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler')
      .find((hpa) => hpa.spec?.scaleTargetRef.kind === 'Deployment' && hpa.spec.scaleTargetRef.name === name);
    const replicas = Math.min(deployment.spec?.replicas ?? Infinity, scaler?.spec?.minReplicas ?? 1);
    // A budget is a whole number of pods or a percentage of them, which Kubernetes rounds up.
    const podsOf = (value: number | string): number | undefined => {
      if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
      const percent = /^(\d+)%$/.exec(value)?.[1];
      return percent === undefined || Number(percent) > 100 ? undefined : Math.ceil((Number(percent) * replicas) / 100);
    };
    const { minAvailable, maxUnavailable } = spec ?? {};
    t.true((minAvailable === undefined) !== (maxUnavailable === undefined), `${name}: exactly one of minAvailable and maxUnavailable`);
    const value = minAvailable ?? maxUnavailable;
    const pods = value === undefined ? undefined : podsOf(value);
    if (pods === undefined) {
      t.fail(`${name}: ${JSON.stringify(value)} is neither a whole number of pods nor a percentage (/^\\d+%$/, at most 100%)`);
      continue;
    }
    // Of `replicas` pods, at least one may go (a minAvailable equal to the replica count would block
    // every node drain) and at least one stays.
    const mayGo = minAvailable === undefined ? Math.min(pods, replicas) : replicas - pods;
    t.true(mayGo >= 1, `${name}: ${JSON.stringify(spec)} lets at least one of ${replicas} go`);
    t.true(replicas - mayGo >= 1, `${name}: ${JSON.stringify(spec)} keeps at least one of ${replicas}`);
  }
});

eachLayer('every Deployment rolls one new ready pod in before an old one goes, and spreads its pods over nodes and over zones', (t, rendered) => {
  for (const name of DEPLOYMENTS) {
    const deployment = rendered.deployment(name);
    t.is(deployment.spec?.strategy?.type, 'RollingUpdate', `${name}: RollingUpdate`);
    t.is(deployment.spec?.strategy?.rollingUpdate?.maxUnavailable, 0, `${name}: maxUnavailable 0`);
    t.true(Number(deployment.spec?.strategy?.rollingUpdate?.maxSurge ?? 0) >= 1, `${name}: maxSurge ≥ 1`);
    const spread = deployment.spec?.template.spec?.topologySpreadConstraints ?? [];
    for (const key of ['kubernetes.io/hostname', 'topology.kubernetes.io/zone']) {
      const own = spread.filter((constraint) => constraint.topologyKey === key);
      t.is(own.length, 1, `${name}: one spread constraint over ${key}`);
      const constraint = own[0];
      t.true(labelSelectorMatches(constraint?.labelSelector, podLabels(deployment)), `${name}: the ${key} spread counts its own pods`);
      for (const other of DEPLOYMENTS.filter((d) => d !== name)) {
        t.false(
          labelSelectorMatches(constraint?.labelSelector, podLabels(rendered.deployment(other))),
          `${name}: the ${key} spread does not count ${other}'s pods`,
        );
      }
      t.is(constraint?.maxSkew, 1, `${name}: ${key} maxSkew 1`);
      // a single-zone cluster, or a node short during a drain, must still run every replica
      t.is(constraint?.whenUnsatisfiable, 'ScheduleAnyway', `${name}: ${key} is a preference, never a reason to leave a pod Pending`);
    }
  }
});

eachLayer('every pod template, CronJobs and Jobs included, names a ServiceAccount of its own, which mounts no API token', (t, rendered) => {
  const accounts = rendered.all<IServiceAccount>('ServiceAccount');
  const templates = rendered.podTemplates();
  // found by kind: production's backup CronJob is checked as the Deployments and the migrate Job are
  t.is(templates.length, rendered.objects.filter((object) => ['Deployment', 'Job', 'CronJob'].includes(object.kind)).length, 'every workload found');
  const names = templates.map(({ name, labels, pod }) => {
    const account = pod?.serviceAccountName;
    t.truthy(account, `${name}: names a ServiceAccount (not the namespace's default)`);
    t.not(account, 'default', `${name}: not the namespace's default ServiceAccount`);
    t.is(pod?.serviceAccount, undefined, `${name}: no deprecated serviceAccount field`);
    const found = accounts.filter((candidate) => candidate.metadata?.name === account);
    t.is(found.length, 1, `${name}: its ServiceAccount ${account} is rendered with it`);
    t.false(found[0]?.automountServiceAccountToken ?? true, `${name}: ServiceAccount ${account} mounts no token by default`);
    t.false(pod?.automountServiceAccountToken ?? true, `${name}: the pod mounts no token either`);
    t.deepEqual(found[0]?.secrets ?? [], [], `${name}: ServiceAccount ${account} carries no token Secret`);
    // `kubectl apply -l app.kubernetes.io/name=migrate` (deploy/README.md step 6) takes the account along
    t.is(
      found[0]?.metadata?.labels?.['app.kubernetes.io/name'],
      labels['app.kubernetes.io/name'],
      `${name}: ServiceAccount ${account} carries its workload's name label`,
    );
    return account;
  });
  t.is(new Set(names).size, names.length, `one ServiceAccount per workload: ${names.join(', ')}`);
  t.deepEqual(accounts.map((account) => account.metadata?.name).sort(), [...names].sort(), 'no ServiceAccount that no workload uses');
  t.is(rendered.all<K8sObject>('RoleBinding').length + rendered.all<K8sObject>('ClusterRoleBinding').length, 0, 'no workload is granted any API access');
});

eachLayer("every Deployment's container has startup, readiness and liveness probes, and CPU and memory requests and limits", (t, rendered) => {
  for (const name of DEPLOYMENTS) {
    const container = app(rendered.deployment(name));
    for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
      const probe = container[kind];
      t.truthy(probe?.grpc ?? probe?.httpGet ?? probe?.tcpSocket ?? probe?.exec, `${name}: ${kind}`);
      if (probe) t.truthy(probePort(container, probe) ?? probe.exec, `${name}: ${kind} names a port of the container`);
    }
    for (const bound of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) t.truthy(container.resources?.[bound]?.[resource], `${name}: resources.${bound}.${resource}`);
    }
  }
});

eachLayer('dms-svc shares its files on a ReadWriteMany claim (with files in a bucket: none) and rolls its replicas one by one (no Recreate)', (t, rendered) => {
  const config = rendered.config().data;
  const dms = rendered.deployment('dms-svc');
  if (config.DMS_STORAGE === 's3') checkNoFilesVolume(t, rendered);
  else {
    const mount = app(dms).volumeMounts?.find((m) => m.mountPath === config.DMS_STORAGE_DIR);
    const claim = dms.spec?.template.spec?.volumes?.find((v) => v.name === mount?.name)?.persistentVolumeClaim?.claimName ?? '';
    const pvc = rendered.one<IPersistentVolumeClaim>('PersistentVolumeClaim', claim);
    t.deepEqual(pvc.spec?.accessModes, ['ReadWriteMany'], 'every replica mounts it, on any node');
  }
  t.is(dms.spec?.strategy?.type, 'RollingUpdate', 'old and new replicas replace one another one by one during a rollout');
});

eachLayer(
  "each service's worker: its only port is its metrics port, which its probes ask GET /health on; no Service but a headless metrics one selects it; it reaches PostgreSQL and nothing of the platform; dms-worker mounts the files' claim (with files in a bucket: none)",
  (t, rendered) => {
    const config = rendered.config().data;
    const dms = rendered.deployment('dms-svc');
    const filesMount = app(dms).volumeMounts?.find((m) => m.mountPath === config.DMS_STORAGE_DIR);
    const filesClaim = dms.spec?.template.spec?.volumes?.find((v) => v.name === filesMount?.name)?.persistentVolumeClaim?.claimName;
    for (const [name, entry] of Object.entries(WORKERS)) {
      const deployment = rendered.deployment(name);
      const container = app(deployment);
      const port = Number(config[METRICS_PORTS[name as Worker]]);
      t.deepEqual(
        (container.ports ?? []).map((p) => [p.name, p.containerPort]),
        [['metrics', port]],
        `${name}: one container port, metrics`,
      );
      t.is(podLabels(deployment)['app.kubernetes.io/component'], 'worker', `${name}: the worker component`);
      for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
        t.is(container[kind]?.httpGet?.path, '/health', `${name}: ${kind} asks GET /health`);
        t.is(probePort(container, container[kind]), port, `${name}: ${kind} on its metrics port`);
      }
      for (const service of rendered.all<IService>('Service')) {
        if (selects(service.spec?.selector, podLabels(deployment)))
          t.true(isMetricsService(service), `${name}: selected by ${service.metadata?.name}, a metrics Service only`);
      }
      t.true(egressAllowed(rendered, podLabels(deployment), 'external', POSTGRES_PORT), `${name}: reaches PostgreSQL`);
      t.false(egressAllowed(rendered, podLabels(deployment), 'external', REDIS_PORT), `${name}: no Redis`);
      for (const [service, variable] of Object.entries(GRPC_SERVICES)) {
        const target = rendered.deployment(service);
        const grpcPort = parseAddress(config[variable]).port;
        t.false(egressAllowed(rendered, podLabels(deployment), { pod: podLabels(target) }, grpcPort, 'TCP', app(target)), `${name}: does not call ${service}`);
      }
      // the service's own settings and secrets, as the service reads them
      t.deepEqual(container.envFrom, app(rendered.deployment(entry.split('/')[0]!)).envFrom, `${name}: the configuration and Secret of its service`);
      if (name === 'dms-worker' && config.DMS_STORAGE === 's3') checkNoFilesVolume(t, rendered);
      else if (name === 'dms-worker') {
        const mount = container.volumeMounts?.find((m) => m.mountPath === config.DMS_STORAGE_DIR);
        t.truthy(mount, 'dms-worker: the files at DMS_STORAGE_DIR');
        t.not(mount?.readOnly, true, 'dms-worker: writable (retention purges, the sweeps remove)');
        const claim = deployment.spec?.template.spec?.volumes?.find((v) => v.name === mount?.name)?.persistentVolumeClaim?.claimName;
        t.is(claim, filesClaim, "dms-worker: dms-svc's claim");
      }
    }
  },
);
