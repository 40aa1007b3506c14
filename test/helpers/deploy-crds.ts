/**
 * JSON schemas for the custom resources deploy/ renders, which kubernetes-models does not know:
 * prometheus-operator's ServiceMonitor and PrometheusRule (monitoring.coreos.com/v1), cert-manager's
 * Certificate (cert-manager.io/v1), Gateway API's Gateway and HTTPRoute
 * (gateway.networking.k8s.io/v1), and CloudNativePG's Cluster, Pooler and ScheduledBackup
 * (postgresql.cnpg.io/v1, from config/crd/bases of cloudnative-pg/cloudnative-pg at v1.30.0, the
 * PgBouncer parameters it admits from internal/webhook/v1/pooler_webhook.go) with its Barman Cloud
 * plugin's ObjectStore (barmancloud.cnpg.io/v1, cloudnative-pg/plugin-barman-cloud v0.14.0). Written here from each project's published CRD reference, for the
 * fields deploy/ uses and with their types, required fields and enumerations; every object level
 * refuses fields it does not list, so a misspelt or misplaced field fails the test where the API
 * server would drop it or refuse the object. The published CRDs are far larger (tens of kilobytes
 * each, mostly fields deploy/ never sets); these are a strict subset, not a copy.
 */
import { Ajv } from 'ajv';

type Schema = Record<string, unknown>;

/** An object that admits exactly `properties`, of which `required` must be present. */
function object(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: 'object', properties, required, additionalProperties: false };
}
const string: Schema = { type: 'string', minLength: 1 };
const stringMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };
/** Prometheus' duration: 30s, 5m, 1h30m. */
const duration: Schema = { type: 'string', pattern: '^((\\d+y)?(\\d+w)?(\\d+d)?(\\d+h)?(\\d+m)?(\\d+s)?(\\d+ms)?|0)$', minLength: 1 };
const dnsLabel: Schema = { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 };
const hostname: Schema = { type: 'string', pattern: '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', maxLength: 253 };
const port: Schema = { type: 'integer', minimum: 1, maximum: 65535 };

function resource(apiVersion: string, kind: string, spec: Schema): Schema {
  return object(
    {
      apiVersion: { const: apiVersion },
      kind: { const: kind },
      metadata: object({ name: dnsLabel, namespace: dnsLabel, labels: stringMap, annotations: stringMap }, ['name']),
      spec,
    },
    ['apiVersion', 'kind', 'metadata', 'spec'],
  );
}

const labelSelector: Schema = object({
  matchLabels: stringMap,
  matchExpressions: {
    type: 'array',
    items: object({ key: string, operator: { enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] }, values: { type: 'array', items: { type: 'string' } } }, [
      'key',
      'operator',
    ]),
  },
});

const serviceMonitor = resource(
  'monitoring.coreos.com/v1',
  'ServiceMonitor',
  object(
    {
      jobLabel: string,
      targetLabels: { type: 'array', items: string },
      podTargetLabels: { type: 'array', items: string },
      selector: labelSelector,
      namespaceSelector: object({ any: { type: 'boolean' }, matchNames: { type: 'array', items: string } }),
      endpoints: {
        type: 'array',
        minItems: 1,
        items: object({
          port: string,
          targetPort: { anyOf: [port, string] },
          path: { type: 'string', pattern: '^/' },
          scheme: { enum: ['http', 'https', 'HTTP', 'HTTPS'] },
          interval: duration,
          scrapeTimeout: duration,
          honorLabels: { type: 'boolean' },
        }),
      },
    },
    ['selector', 'endpoints'],
  ),
);

const prometheusRule = resource(
  'monitoring.coreos.com/v1',
  'PrometheusRule',
  object(
    {
      groups: {
        type: 'array',
        items: object(
          {
            name: string,
            interval: duration,
            rules: {
              type: 'array',
              items: {
                ...object(
                  { alert: string, record: string, expr: { anyOf: [string, { type: 'integer' }] }, for: duration, labels: stringMap, annotations: stringMap },
                  ['expr'],
                ),
                // an alerting rule or a recording rule, never both
                oneOf: [{ required: ['alert'] }, { required: ['record'] }],
              },
            },
          },
          ['name', 'rules'],
        ),
      },
    },
    ['groups'],
  ),
);

const certificate = resource(
  'cert-manager.io/v1',
  'Certificate',
  object(
    {
      secretName: dnsLabel,
      dnsNames: { type: 'array', minItems: 1, items: hostname },
      duration: string,
      renewBefore: string,
      usages: { type: 'array', items: { enum: ['digital signature', 'key encipherment', 'server auth', 'client auth'] } },
      privateKey: object({ algorithm: { enum: ['RSA', 'ECDSA', 'Ed25519'] }, size: { type: 'integer' }, rotationPolicy: { enum: ['Never', 'Always'] } }),
      issuerRef: object({ name: string, kind: { enum: ['Issuer', 'ClusterIssuer'] }, group: { const: 'cert-manager.io' } }, ['name']),
    },
    ['secretName', 'issuerRef'],
  ),
);

const gatewayListener = object(
  {
    name: dnsLabel,
    hostname,
    port,
    protocol: { enum: ['HTTP', 'HTTPS', 'TLS', 'TCP', 'UDP'] },
    tls: object({
      mode: { enum: ['Terminate', 'Passthrough'] },
      certificateRefs: { type: 'array', items: object({ kind: { const: 'Secret' }, group: { const: '' }, name: string, namespace: dnsLabel }, ['name']) },
    }),
    allowedRoutes: object({ namespaces: object({ from: { enum: ['All', 'Same', 'Selector'] }, selector: labelSelector }) }),
  },
  ['name', 'port', 'protocol'],
);

const gateway = resource(
  'gateway.networking.k8s.io/v1',
  'Gateway',
  object({ gatewayClassName: string, listeners: { type: 'array', minItems: 1, maxItems: 64, items: gatewayListener } }, ['gatewayClassName', 'listeners']),
);

const header = object({ name: string, value: { type: 'string' } }, ['name', 'value']);
const httpRouteFilter = object(
  {
    type: { enum: ['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestRedirect', 'URLRewrite', 'RequestMirror', 'ExtensionRef'] },
    requestRedirect: object({ scheme: { enum: ['http', 'https'] }, hostname, port, statusCode: { enum: [301, 302, 303, 307, 308] } }),
    responseHeaderModifier: object({ set: { type: 'array', items: header }, add: { type: 'array', items: header }, remove: { type: 'array', items: string } }),
    requestHeaderModifier: object({ set: { type: 'array', items: header }, add: { type: 'array', items: header }, remove: { type: 'array', items: string } }),
  },
  ['type'],
);

const httpRoute = resource(
  'gateway.networking.k8s.io/v1',
  'HTTPRoute',
  object(
    {
      parentRefs: {
        type: 'array',
        minItems: 1,
        items: object(
          { name: string, namespace: dnsLabel, sectionName: dnsLabel, port, kind: { const: 'Gateway' }, group: { const: 'gateway.networking.k8s.io' } },
          ['name'],
        ),
      },
      hostnames: { type: 'array', items: hostname },
      rules: {
        type: 'array',
        minItems: 1,
        items: object({
          matches: {
            type: 'array',
            items: object({ path: object({ type: { enum: ['Exact', 'PathPrefix', 'RegularExpression'] }, value: { type: 'string', pattern: '^/' } }) }),
          },
          filters: { type: 'array', items: httpRouteFilter },
          backendRefs: {
            type: 'array',
            items: object({ name: string, port, kind: { const: 'Service' }, group: { const: '' }, weight: { type: 'integer', minimum: 0 } }, ['name', 'port']),
          },
        }),
      },
    },
    ['parentRefs', 'rules'],
  ),
);

// ---------------------------------------------------------------------------------------------
// CloudNativePG 1.30 (postgresql.cnpg.io/v1) and its Barman Cloud plugin 0.14 (barmancloud.cnpg.io/v1)

/** A Kubernetes quantity (`20Gi`, `500m`), as the CRDs' int-or-string pattern admits it. */
const quantity: Schema = {
  anyOf: [
    { type: 'integer', minimum: 0 },
    { type: 'string', pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$' },
  ],
};
const resources: Schema = object({ requests: { type: 'object', additionalProperties: quantity }, limits: { type: 'object', additionalProperties: quantity } });
const localObjectReference: Schema = object({ name: dnsLabel }, ['name']);
const secretKeySelector: Schema = object({ name: dnsLabel, key: string }, ['name', 'key']);
const topologySpreadConstraint: Schema = object(
  {
    maxSkew: { type: 'integer', minimum: 1 },
    topologyKey: string,
    whenUnsatisfiable: { enum: ['DoNotSchedule', 'ScheduleAnyway'] },
    labelSelector,
    minDomains: { type: 'integer', minimum: 1 },
  },
  ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
);
/** The plugin CloudNativePG backs up with (Barman Cloud), by its registered name. */
const BARMAN_CLOUD_PLUGIN = 'barman-cloud.cloudnative-pg.io';

const cnpgCluster = resource(
  'postgresql.cnpg.io/v1',
  'Cluster',
  object(
    {
      description: string,
      instances: { type: 'integer', minimum: 1 },
      imageName: string,
      primaryUpdateStrategy: { enum: ['unsupervised', 'supervised'] },
      primaryUpdateMethod: { enum: ['switchover', 'restart'] },
      enableSuperuserAccess: { type: 'boolean' },
      enablePDB: { type: 'boolean' },
      bootstrap: object({
        initdb: object({
          database: string,
          owner: string,
          dataChecksums: { type: 'boolean' },
          encoding: string,
          localeCollate: string,
          localeCType: string,
          postInitApplicationSQL: { type: 'array', items: string },
        }),
      }),
      // postgresql.conf: every value a string, as the CRD has it
      postgresql: object({ parameters: { type: 'object', additionalProperties: { type: 'string' } } }),
      storage: object({ size: { type: 'string', pattern: '^[0-9]+(Mi|Gi|Ti)$' }, storageClass: string, resizeInUseVolumes: { type: 'boolean' } }),
      walStorage: object({ size: { type: 'string', pattern: '^[0-9]+(Mi|Gi|Ti)$' }, storageClass: string }),
      resources,
      affinity: object({
        enablePodAntiAffinity: { type: 'boolean' },
        topologyKey: string,
        podAntiAffinityType: { enum: ['preferred', 'required'] },
        nodeSelector: stringMap,
      }),
      topologySpreadConstraints: { type: 'array', items: topologySpreadConstraint },
      plugins: {
        type: 'array',
        items: object({ name: string, enabled: { type: 'boolean' }, isWALArchiver: { type: 'boolean' }, parameters: stringMap }, ['name']),
      },
      monitoring: object({ enablePodMonitor: { type: 'boolean' } }),
      // roles the operator keeps as declared (RoleConfiguration), their passwords from basic-auth Secrets
      managed: object({
        roles: {
          type: 'array',
          items: object(
            {
              name: string,
              comment: string,
              ensure: { enum: ['present', 'absent'] },
              login: { type: 'boolean' },
              superuser: { type: 'boolean' },
              createdb: { type: 'boolean' },
              createrole: { type: 'boolean' },
              replication: { type: 'boolean' },
              bypassrls: { type: 'boolean' },
              inherit: { type: 'boolean' },
              connectionLimit: { type: 'integer', minimum: -1 },
              validUntil: string,
              inRoles: { type: 'array', items: string },
              passwordSecret: localObjectReference,
              disablePassword: { type: 'boolean' },
            },
            ['name'],
          ),
        },
      }),
    },
    ['instances'],
  ),
);

/** The PgBouncer settings CloudNativePG's Pooler admits (its webhook refuses any other name). */
const PGBOUNCER_PARAMETERS = [
  'application_name_add_host',
  'auth_type',
  'autodb_idle_timeout',
  'cancel_wait_timeout',
  'client_idle_timeout',
  'client_login_timeout',
  'client_tls_ciphers',
  'client_tls_sslmode',
  'client_tls13_ciphers',
  'default_pool_size',
  'disable_pqexec',
  'dns_max_ttl',
  'dns_nxdomain_ttl',
  'idle_transaction_timeout',
  'ignore_startup_parameters',
  'listen_backlog',
  'log_connections',
  'log_disconnections',
  'log_pooler_errors',
  'log_stats',
  'max_client_conn',
  'max_db_connections',
  'max_packet_size',
  'max_prepared_statements',
  'max_user_connections',
  'min_pool_size',
  'pkt_buf',
  'query_timeout',
  'query_wait_timeout',
  'reserve_pool_size',
  'reserve_pool_timeout',
  'sbuf_loopcnt',
  'server_check_delay',
  'server_check_query',
  'server_connect_timeout',
  'server_fast_close',
  'server_idle_timeout',
  'server_lifetime',
  'server_login_retry',
  'server_reset_query',
  'server_reset_query_always',
  'server_round_robin',
  'server_tls_ciphers',
  'server_tls13_ciphers',
  'server_tls_protocols',
  'server_tls_sslmode',
  'stats_period',
  'suspend_timeout',
  'tcp_defer_accept',
  'tcp_socket_buffer',
  'tcp_keepalive',
  'tcp_keepcnt',
  'tcp_keepidle',
  'tcp_keepintvl',
  'tcp_user_timeout',
  'track_extra_parameters',
  'verbose',
];

const cnpgPooler = resource(
  'postgresql.cnpg.io/v1',
  'Pooler',
  object(
    {
      cluster: localObjectReference,
      instances: { type: 'integer', minimum: 0 },
      type: { enum: ['rw', 'ro', 'r'] },
      deploymentStrategy: object({
        type: { enum: ['RollingUpdate', 'Recreate'] },
        rollingUpdate: object({
          maxSurge: { anyOf: [{ type: 'integer', minimum: 0 }, string] },
          maxUnavailable: { anyOf: [{ type: 'integer', minimum: 0 }, string] },
        }),
      }),
      pgbouncer: object(
        {
          poolMode: { enum: ['session', 'transaction'] },
          parameters: { type: 'object', propertyNames: { enum: PGBOUNCER_PARAMETERS }, additionalProperties: { type: 'string' } },
          paused: { type: 'boolean' },
        },
        [],
      ),
    },
    ['cluster', 'pgbouncer'],
  ),
);

const cnpgScheduledBackup = resource(
  'postgresql.cnpg.io/v1',
  'ScheduledBackup',
  object(
    {
      // six fields, seconds first (robfig/cron with seconds)
      schedule: { type: 'string', pattern: '^\\S+( \\S+){5}$' },
      immediate: { type: 'boolean' },
      suspend: { type: 'boolean' },
      backupOwnerReference: { enum: ['none', 'self', 'cluster'] },
      cluster: localObjectReference,
      method: { enum: ['barmanObjectStore', 'volumeSnapshot', 'plugin'] },
      target: { enum: ['primary', 'prefer-standby'] },
      pluginConfiguration: object({ name: string, parameters: stringMap }, ['name']),
    },
    ['cluster', 'schedule'],
  ),
);

const barmanObjectStore = resource(
  'barmancloud.cnpg.io/v1',
  'ObjectStore',
  object(
    {
      retentionPolicy: { type: 'string', pattern: '^[1-9][0-9]*[dwm]$' },
      configuration: object(
        {
          // serverName: for the in-tree API only, refused here (the CRD's rule)
          destinationPath: { type: 'string', pattern: '^s3://[a-z0-9][a-z0-9.-]*[a-z0-9](/.*)?$' },
          endpointURL: { type: 'string', pattern: '^https?://' },
          s3Credentials: object({
            accessKeyId: secretKeySelector,
            secretAccessKey: secretKeySelector,
            region: secretKeySelector,
            inheritFromIAMRole: { type: 'boolean' },
          }),
          wal: object({ compression: { enum: ['bzip2', 'gzip', 'lz4', 'snappy', 'xz', 'zstd'] }, maxParallel: { type: 'integer', minimum: 1 } }),
          data: object({
            compression: { enum: ['bzip2', 'gzip', 'lz4', 'snappy'] },
            jobs: { type: 'integer', minimum: 1 },
            immediateCheckpoint: { type: 'boolean' },
          }),
        },
        ['destinationPath'],
      ),
    },
    ['configuration'],
  ),
);

// strictRequired off: the rule's oneOf names properties declared beside it, not inside it
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
const validators = new Map(
  Object.entries({
    'monitoring.coreos.com/v1/ServiceMonitor': serviceMonitor,
    'monitoring.coreos.com/v1/PrometheusRule': prometheusRule,
    'cert-manager.io/v1/Certificate': certificate,
    'gateway.networking.k8s.io/v1/Gateway': gateway,
    'gateway.networking.k8s.io/v1/HTTPRoute': httpRoute,
    'postgresql.cnpg.io/v1/Cluster': cnpgCluster,
    'postgresql.cnpg.io/v1/Pooler': cnpgPooler,
    'postgresql.cnpg.io/v1/ScheduledBackup': cnpgScheduledBackup,
    'barmancloud.cnpg.io/v1/ObjectStore': barmanObjectStore,
  }).map(([key, schema]) => [key, ajv.compile(schema)]),
);

/** The custom resources this file has a schema for, as `<apiVersion>/<kind>`. */
export const CUSTOM_RESOURCES = [...validators.keys()];

/** The Barman Cloud plugin's name, as a Cluster's `plugins` and a ScheduledBackup's `pluginConfiguration` give it. */
export { BARMAN_CLOUD_PLUGIN };

/**
 * The schema errors of a custom resource, empty when it passes; undefined when `apiVersion`/`kind`
 * is not one of CUSTOM_RESOURCES.
 */
export function customResourceErrors(object: { apiVersion: string; kind: string }): string[] | undefined {
  const validate = validators.get(`${object.apiVersion}/${object.kind}`);
  if (!validate) return undefined;
  if (validate(object)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
}
