/**
 * JSON schemas for the custom resources deploy/ renders, which kubernetes-models does not know:
 * prometheus-operator's ServiceMonitor and PrometheusRule (monitoring.coreos.com/v1), cert-manager's
 * Certificate (cert-manager.io/v1) and Gateway API's Gateway and HTTPRoute
 * (gateway.networking.k8s.io/v1). Written here from each project's published CRD reference, for the
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

// strictRequired off: the rule's oneOf names properties declared beside it, not inside it
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
const validators = new Map(
  Object.entries({
    'monitoring.coreos.com/v1/ServiceMonitor': serviceMonitor,
    'monitoring.coreos.com/v1/PrometheusRule': prometheusRule,
    'cert-manager.io/v1/Certificate': certificate,
    'gateway.networking.k8s.io/v1/Gateway': gateway,
    'gateway.networking.k8s.io/v1/HTTPRoute': httpRoute,
  }).map(([key, schema]) => [key, ajv.compile(schema)]),
);

/** The custom resources this file has a schema for, as `<apiVersion>/<kind>`. */
export const CUSTOM_RESOURCES = [...validators.keys()];

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
