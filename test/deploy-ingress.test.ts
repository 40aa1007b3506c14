/**
 * The way in from outside (deploy/README.md "A way in"): components/ingress (an Ingress for
 * ingress-nginx, which production includes) and components/gateway-api (a Gateway and HTTPRoutes,
 * rendered as the variant production-gateway-api): TLS from cert-manager, HTTP redirected to HTTPS,
 * HSTS, the public port of the gateway and never its management port, the proxy's body size and
 * timeouts against the platform's (deploy/base/config.env), and TRUST_PROXY as one proxy hop.
 * Rendered by test/helpers/deploy-render.ts.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IService } from 'kubernetes-models/v1/Service';
import { DEPLOY, GATEWAY, ROOT } from './helpers/deploy-layout.ts';
import { eachLayer, render } from './helpers/deploy-render.ts';
import { app, containerPort, envFile } from './helpers/deploy-objects.ts';
import type { Layer } from './helpers/deploy-layout.ts';
import type { K8sObject, Rendered } from './helpers/deploy-render.ts';

/** The layers reached from outside through a proxy, and how. */
const WAY_IN: Partial<Record<Layer, 'ingress' | 'gateway-api'>> = {
  production: 'ingress',
  'production-gateway-api': 'gateway-api',
  'production-s3': 'ingress',
};
const INGRESS_NGINX_VALUES = join(DEPLOY, 'components/ingress/ingress-nginx-values.yaml');
/**
 * The most an upload's multipart envelope adds to its file (dms-svc/src/files/receive-upload.ts:
 * at most 20 fields of 4 KiB and 30 parts, each with its headers and boundary), rounded up.
 */
const MULTIPART_ENVELOPE = 256 * 1024;
/** How much longer than the gateway the proxy may wait: enough for the gateway's answer to get through. */
const PROXY_GRACE_SECONDS = 30;
const YEAR_SECONDS = 365 * 24 * 3600;

interface Gateway extends K8sObject {
  spec: {
    gatewayClassName: string;
    listeners: {
      name: string;
      hostname?: string;
      port: number;
      protocol: string;
      tls?: { mode?: string; certificateRefs?: { kind?: string; name: string }[] };
    }[];
  };
}
interface HttpRoute extends K8sObject {
  spec: {
    parentRefs: { name: string; sectionName?: string }[];
    hostnames?: string[];
    rules: {
      filters?: {
        type: string;
        requestRedirect?: { scheme?: string; statusCode?: number };
        responseHeaderModifier?: { set?: { name: string; value: string }[]; add?: { name: string; value: string }[] };
      }[];
      backendRefs?: { name: string; port: number; kind?: string }[];
      timeouts?: unknown;
    }[];
  };
}
interface Certificate extends K8sObject {
  spec: { secretName: string; dnsNames?: string[]; issuerRef: { name: string; kind?: string } };
}

/** nginx's size syntax: bytes, or a number with k, m or g. */
function nginxBytes(size: string): number {
  const match = /^(\d+)([kmg]?)$/i.exec(size);
  if (!match) throw new Error(`not an nginx size: ${size}`);
  return Number(match[1]) * 1024 ** ' kmg'.indexOf((match[2] || ' ').toLowerCase());
}

/** The gateway's own bounds on a request's body, in seconds, from the rendered ConfigMap. */
function gatewayBodySeconds(rendered: Rendered): number {
  const { data } = rendered.config();
  const bounds = [data.REQUEST_BODY_TIMEOUT_MS, data.UPLOAD_IDLE_TIMEOUT_MS].map(Number);
  if (bounds.some((bound) => !Number.isInteger(bound) || bound <= 0)) throw new Error(`REQUEST_BODY_TIMEOUT_MS, UPLOAD_IDLE_TIMEOUT_MS: ${bounds.join(', ')}`);
  return Math.max(...bounds) / 1000;
}

/** The container port the Service `name`'s port `port` (number or name) reaches on the gateway. */
function gatewayPortBehind(rendered: Rendered, name: string, port: number | string | undefined): number | undefined {
  const service = rendered.all<IService>('Service').find((candidate) => candidate.metadata?.name === name);
  const servicePort = service?.spec?.ports?.find((p) => p.port === port || p.name === port);
  return servicePort ? containerPort(app(rendered.deployment(GATEWAY)), servicePort.targetPort ?? servicePort.port) : undefined;
}

test('deploy/base/config.env states the gateway body timeouts the proxies are set against', (t) => {
  const env = envFile(readFileSync(join(DEPLOY, 'base/config.env'), 'utf8'));
  for (const key of ['REQUEST_BODY_TIMEOUT_MS', 'UPLOAD_IDLE_TIMEOUT_MS', 'DMS_MAX_UPLOAD_BYTES']) t.regex(env.get(key) ?? '', /^\d+$/, `${key} is set`);
});

eachLayer('one way in where a proxy is in front, and TRUST_PROXY counts exactly that one hop', (t, rendered) => {
  const ingresses = rendered.all<IIngress>('Ingress');
  const gateways = rendered.all<Gateway>('Gateway');
  const routes = rendered.all<HttpRoute>('HTTPRoute');
  const way = WAY_IN[rendered.layer];
  t.is(ingresses.length, way === 'ingress' ? 1 : 0, 'Ingresses');
  t.is(gateways.length, way === 'gateway-api' ? 1 : 0, 'Gateways');
  t.is(routes.length > 0, way === 'gateway-api', 'HTTPRoutes');
  const trustProxy = rendered.config().data.TRUST_PROXY;
  // one hop: the proxy appends the address it saw, the gateway takes that one (deploy-live.test.ts
  // shows it against a running gateway); 0 where clients come through kubectl port-forward
  if (way) t.is(trustProxy, '1', `${rendered.layer}: TRUST_PROXY=1 behind the ${way} proxy`);
  else if (rendered.layer !== 'base') t.is(trustProxy, '0', `${rendered.layer}: no proxy in front, TRUST_PROXY=0`);
});

test('production: the Ingress reaches the public port of the gateway over TLS from cert-manager and redirects HTTP to HTTPS', (t) => {
  const rendered = render('production');
  const ingress = rendered.one<IIngress>('Ingress', GATEWAY);
  const annotations = ingress.metadata?.annotations ?? {};
  const config = rendered.config().data;
  t.truthy(ingress.spec?.ingressClassName, 'ingressClassName names the controller');
  t.is(ingress.spec?.defaultBackend, undefined);
  const hosts = (ingress.spec?.rules ?? []).map((rule) => rule.host);
  t.true(hosts.length > 0 && hosts.every(Boolean), 'every rule names its host');
  const tlsHosts = (ingress.spec?.tls ?? []).flatMap((tls) => tls.hosts ?? []);
  for (const host of hosts) t.true(tlsHosts.includes(host ?? ''), `${host} is served over TLS`);
  for (const tls of ingress.spec?.tls ?? []) t.truthy(tls.secretName, 'the certificate Secret cert-manager writes');
  t.truthy(annotations['cert-manager.io/cluster-issuer'] ?? annotations['cert-manager.io/issuer'], 'cert-manager issues the certificate');
  t.is(annotations['nginx.ingress.kubernetes.io/ssl-redirect'], 'true');
  t.is(annotations['nginx.ingress.kubernetes.io/force-ssl-redirect'], 'true', 'HTTP is redirected, also before the certificate exists');
  for (const rule of ingress.spec?.rules ?? []) {
    for (const path of rule.http?.paths ?? []) {
      const backend = path.backend.service;
      t.is(backend?.name, GATEWAY, `${rule.host}${path.path}: to the Service gateway`);
      t.is(gatewayPortBehind(rendered, backend?.name ?? '', backend?.port?.number ?? backend?.port?.name), Number(config.GATEWAY_PORT), 'its public port');
      t.not(
        gatewayPortBehind(rendered, backend?.name ?? '', backend?.port?.number ?? backend?.port?.name),
        Number(config.MANAGEMENT_PORT),
        'never the management port',
      );
    }
  }
  t.deepEqual(
    (ingress.spec?.rules ?? []).flatMap((rule) => (rule.http?.paths ?? []).map((path) => `${path.pathType} ${path.path}`)),
    ['Prefix /'],
    'the whole origin',
  );
});

test("production: the Ingress's body size and timeouts agree with the platform's (DMS_MAX_UPLOAD_BYTES, REQUEST_BODY_TIMEOUT_MS, UPLOAD_IDLE_TIMEOUT_MS)", (t) => {
  const rendered = render('production');
  const annotations = rendered.one<IIngress>('Ingress', GATEWAY).metadata?.annotations ?? {};
  const config = rendered.config().data;
  const maxUpload = Number(config.DMS_MAX_UPLOAD_BYTES);
  const bodySize = nginxBytes(annotations['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '');
  t.true(bodySize >= maxUpload + MULTIPART_ENVELOPE, `proxy-body-size ${bodySize} lets the largest upload (${maxUpload}) and its envelope through`);
  t.true(bodySize <= maxUpload + 16 * 1024 * 1024, `proxy-body-size ${bodySize} cuts what the platform refuses anyway`);
  t.is(annotations['nginx.ingress.kubernetes.io/proxy-request-buffering'], 'off', 'uploads stream to the gateway, not spooled on the controller');
  const gateway = gatewayBodySeconds(rendered);
  const deadline = Number(config.GRPC_DEADLINE_MS ?? 10_000) / 1000;
  for (const key of ['proxy-send-timeout', 'proxy-read-timeout']) {
    const seconds = Number(annotations[`nginx.ingress.kubernetes.io/${key}`]);
    t.true(seconds > gateway, `${key} ${seconds} s: longer than the gateway's ${gateway} s, so the gateway answers first`);
    t.true(seconds <= gateway + PROXY_GRACE_SECONDS, `${key} ${seconds} s: not far past the gateway's ${gateway} s`);
    t.true(seconds > deadline, `${key} ${seconds} s: past the gateway's gRPC deadline (${deadline} s)`);
  }
});

test("the ingress-nginx values: HSTS, X-Forwarded-For the controller's own, the client's address kept, timeouts against the gateway's", (t) => {
  const values = parse(readFileSync(INGRESS_NGINX_VALUES, 'utf8')) as { controller: { config: Record<string, string>; service: Record<string, string> } };
  const { config, service } = values.controller;
  t.is(config.hsts, 'true');
  t.true(Number(config['hsts-max-age']) >= YEAR_SECONDS, 'HSTS for a year or more');
  t.is(config['ssl-redirect'], 'true');
  // TRUST_PROXY=1 holds only if the controller replaces what the client sent
  t.is(config['use-forwarded-headers'], 'false', 'the client cannot set X-Forwarded-For');
  t.is(config['compute-full-forwarded-for'], 'false');
  t.is(service.externalTrafficPolicy, 'Local', "the controller sees the client's address, not a node's");
  const gateway = gatewayBodySeconds(render('production'));
  const clientBody = Number(config['client-body-timeout']);
  t.true(clientBody > gateway && clientBody <= gateway + PROXY_GRACE_SECONDS, `client-body-timeout ${clientBody} s against the gateway's ${gateway} s`);
  const keepAlive = /server\.keepAliveTimeout = ([\d_]+);/.exec(readFileSync(join(ROOT, 'gateway/src/main.ts'), 'utf8'))?.[1];
  t.truthy(keepAlive, "gateway/src/main.ts sets the server's keepAliveTimeout");
  t.true(
    Number(config['upstream-keepalive-timeout']) * 1000 < Number(keepAlive?.replace(/_/g, '')),
    'the controller drops an idle connection before the gateway does',
  );
});

test('production-gateway-api: an HTTPS listener on 443 with the certificate cert-manager keeps, HTTP on 80 only redirecting, HSTS, the public port of the gateway', (t) => {
  const rendered = render('production-gateway-api');
  const config = rendered.config().data;
  const gateway = rendered.all<Gateway>('Gateway')[0]!;
  t.truthy(gateway.spec.gatewayClassName);
  const https = gateway.spec.listeners.filter((listener) => listener.protocol === 'HTTPS');
  const http = gateway.spec.listeners.filter((listener) => listener.protocol === 'HTTP');
  t.deepEqual(
    https.map((listener) => listener.port),
    [443],
    'one HTTPS listener, on 443',
  );
  t.deepEqual(
    http.map((listener) => listener.port),
    [80],
    'one HTTP listener, on 80',
  );
  t.is(gateway.spec.listeners.length, 2, 'nothing else');
  const listener = https[0]!;
  t.is(listener.tls?.mode ?? 'Terminate', 'Terminate');
  const secrets = (listener.tls?.certificateRefs ?? []).map((ref) => ref.name);
  t.is(secrets.length, 1, 'one certificate');
  const certificates = rendered.all<Certificate>('Certificate').filter((certificate) => secrets.includes(certificate.spec.secretName));
  t.is(certificates.length, 1, `cert-manager's Certificate writes ${secrets.join(', ')}`);
  const names = certificates[0]?.spec.dnsNames ?? [];
  const routes = rendered.all<HttpRoute>('HTTPRoute');
  for (const host of [listener.hostname, ...routes.flatMap((route) => route.spec.hostnames ?? [])])
    t.true(names.includes(host ?? ''), `the certificate names ${host}`);
  t.truthy(certificates[0]?.spec.issuerRef.name);

  const attached = (section: string) =>
    routes.filter((route) => route.spec.parentRefs.some((ref) => ref.name === gateway.metadata?.name && (ref.sectionName ?? section) === section));
  const onHttp = attached(http[0]!.name);
  const onHttps = attached(listener.name);
  t.true(onHttp.length > 0 && onHttps.length > 0, 'routes on both listeners');
  for (const route of routes) {
    for (const ref of route.spec.parentRefs) {
      t.is(ref.name, gateway.metadata?.name ?? '', `${route.metadata?.name}: attached to the Gateway`);
      t.truthy(ref.sectionName, `${route.metadata?.name}: to one listener, named`);
    }
  }
  for (const route of onHttp) {
    for (const rule of route.spec.rules) {
      t.deepEqual(rule.backendRefs ?? [], [], `${route.metadata?.name}: plain HTTP reaches nothing`);
      const redirect = rule.filters?.find((filter) => filter.type === 'RequestRedirect')?.requestRedirect;
      t.is(redirect?.scheme, 'https', `${route.metadata?.name}: redirects to https`);
      t.true([301, 308].includes(redirect?.statusCode ?? 0), `${route.metadata?.name}: permanently`);
    }
  }
  for (const route of onHttps) {
    for (const rule of route.spec.rules) {
      t.true((rule.backendRefs ?? []).length > 0, `${route.metadata?.name}: to a backend`);
      for (const backend of rule.backendRefs ?? []) {
        t.is(backend.kind ?? 'Service', 'Service');
        t.is(backend.name, GATEWAY);
        t.is(gatewayPortBehind(rendered, backend.name, backend.port), Number(config.GATEWAY_PORT), 'the public port of the gateway');
      }
      const headers = (rule.filters ?? [])
        .filter((filter) => filter.type === 'ResponseHeaderModifier')
        .flatMap((filter) => [...(filter.responseHeaderModifier?.set ?? []), ...(filter.responseHeaderModifier?.add ?? [])]);
      const hsts = headers.find((header) => header.name.toLowerCase() === 'strict-transport-security')?.value ?? '';
      t.true(Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0) >= YEAR_SECONDS, `${route.metadata?.name}: HSTS for a year (${hsts})`);
      // a whole-request bound would cut a large upload over a slow link
      t.is(rule.timeouts, undefined, `${route.metadata?.name}: no timeouts.request`);
    }
  }
});
