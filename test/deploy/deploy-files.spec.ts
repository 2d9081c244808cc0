import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import Ajv from 'ajv';
import draft7 from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' };
import { ModulesContainer } from '@nestjs/core';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { Namespace, ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import {
  ConfigError,
  PROVISIONING_SECRETS,
  SERVICE_SECRETS,
  loadRuntimeConfig,
  loadServiceConfig,
  type DistributedServiceName,
} from '@transfergate/runtime';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The deploy files are validated with what runs here: YAML parsing, the Compose Specification
 * schema (vendored in ./schemas from the compose-spec project, Apache-2.0), the Kubernetes
 * schemas (kubernetes-models validates each object against its OpenAPI schema), and semantic
 * checks against the routes the real app registers.
 */
const root = join(import.meta.dirname, '..', '..');
const k8sDir = join(root, 'deploy', 'k8s');

const SERVICE_PORTS: Record<string, number> = {
  'gateway-api': 8080,
  ledger: 8081,
  'panel-api': 8082,
  'callback-dispatcher': 8083,
  'webhook-ingest': 8084,
};
const SERVICE_MODULES: Record<string, string> = {
  GatewayApiModule: 'gateway-api',
  LedgerModule: 'ledger',
  PanelApiModule: 'panel-api',
  CallbackDispatcherModule: 'callback-dispatcher',
  WebhookIngestModule: 'webhook-ingest',
};
/** Routes registered on Fastify directly (not by a controller), with their owner; null = never public. */
const NON_CONTROLLER_ROUTES: Array<[RegExp, string | null]> = [
  [/^\/admin(\/.*)?$/, 'panel-api'],
  [/^\/(api\/)?(metrics|livez|readyz|ready)$/, null],
];

/** Parsed YAML: untyped until the schemas below have checked it. */
type Yaml = any; // eslint-disable-line @typescript-eslint/no-explicit-any

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; spec?: Yaml };

function k8sObjects(): Array<{ file: string; object: K8sObject }> {
  return readdirSync(k8sDir)
    .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(k8sDir, file), 'utf8')).map((doc) => {
        expect(doc.errors).toEqual([]);
        return { file, object: doc.toJS() as K8sObject };
      }),
    );
}

const MODELS: Record<string, new (data: Yaml) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

describe('docker-compose.yml', () => {
  // Compose resolves YAML merge keys (`<<: *service`); so must the check.
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });

  it('validates against the Compose Specification schema', () => {
    // Vendored from the compose-spec project (see schemas/README.md); draft-07, Ajv's default.
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, 'schemas', 'compose-spec.json'), 'utf8'));
    const ajv = new Ajv.default({ strict: false, allErrors: true });
    // The schema names its meta-schema by the https spelling; Ajv ships draft-07 under the http one.
    ajv.addMetaSchema({ ...draft7, $id: schema.$schema });
    const validate = ajv.compile(schema);
    const ok = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    // The check is real: a wrong condition and an unknown key are refused.
    const broken = structuredClone(compose);
    broken.services['gateway-api'].depends_on.ledger.condition = 'service_ready';
    broken.services.ledger.helthcheck = {};
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(['/services/gateway-api/depends_on/ledger/condition', '/services/ledger']),
    );
  });

  it('runs the five services from one image on PostgreSQL + NATS, the engines in the card profile', () => {
    const services = compose.services as Record<string, Yaml>;
    const images = new Set<string>();
    for (const [name, port] of Object.entries(SERVICE_PORTS)) {
      const service = services[name];
      expect(service).toBeDefined();
      images.add(service.image);
      expect(service.command).toEqual(['node', `services/${name}/dist/main.js`]);
      expect(service.environment.PORT).toBe(String(port));
      // Internal services (no public route) publish on loopback only.
      const internal = name === 'ledger' || name === 'callback-dispatcher';
      expect({ name, ports: service.ports }).toEqual({
        name,
        ports: [internal ? `127.0.0.1:${port}:${port}` : `${port}:${port}`],
      });
      // /metrics can be guarded; the sealing key reaches only the services that read it; the first
      // admin's password reaches none (it is the provisioning run's).
      expect(service.environment.METRICS_TOKEN).toBe('${METRICS_TOKEN:-}');
      expect({ name, key: 'TRANSFERGATE_SECRET_KEY' in service.environment }).toEqual({
        name,
        key: SERVICE_SECRETS[name as DistributedServiceName].includes('TRANSFERGATE_SECRET_KEY'),
      });
      expect(service.environment.ADMIN_PASSWORD).toBeUndefined();
      expect(service.healthcheck.test.join(' ')).toContain(`http://127.0.0.1:${port}/readyz`);
      expect(service.depends_on.postgres.condition).toBe('service_healthy');
      expect(service.depends_on.nats.condition).toBe('service_healthy');
      if (name !== 'ledger') expect(service.depends_on.ledger.condition).toBe('service_healthy');
      expect(service.profiles).toBeUndefined();
    }
    expect(images.size).toBe(1);
    for (const engine of ['postgres', 'nats']) expect(services[engine].healthcheck).toBeDefined();
    for (const engine of ['kafka', 'kurrentdb', 'mongodb']) {
      expect(services[engine].profiles).toEqual(['card']);
      expect(services[engine].healthcheck).toBeDefined();
    }
    const cardEnv = readFileSync(join(root, 'deploy', 'compose', 'card.env'), 'utf8');
    expect(cardEnv).toMatch(/^TRANSPORT=kafka$/m);
    expect(cardEnv).toMatch(/^KAFKA_BROKERS=kafka:9092$/m);
    expect(cardEnv).toMatch(/^KURRENTDB_URL=kurrentdb:\/\/kurrentdb:2113/m);
    expect(cardEnv).toMatch(/^MONGODB_URL=mongodb:\/\/mongodb:27017/m);
    // The card image keeps the engines' clients (the default image prunes them), under its own tag.
    expect(cardEnv).toMatch(/^ENGINE_CLIENTS=true$/m);
    expect(cardEnv).toMatch(/^TRANSFERGATE_TAG=card$/m);
    expect(services.ledger.build.args.ENGINE_CLIENTS).toBe('${ENGINE_CLIENTS:-false}');
    expect(services.ledger.environment.KURRENTDB_URL).toBe('${KURRENTDB_URL:-}');
    expect(services.ledger.environment.MONGODB_URL).toBe('${MONGODB_URL:-}');
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toMatch(
      /if \[ "\$ENGINE_CLIENTS" != "true" \]; then npm prune/,
    );
  });
});

describe('deploy/k8s', () => {
  const objects = k8sObjects();
  const of = (kind: string) => objects.filter((o) => o.object.kind === kind).map((o) => o.object);

  it('every object validates against its Kubernetes schema', () => {
    expect(objects.length).toBeGreaterThan(0);
    for (const { file, object } of objects) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      expect({ file, kind: object.kind, known: Boolean(Model) }).toEqual({ file, kind: object.kind, known: true });
      expect(() => new Model!(object).validate()).not.toThrow();
      if (object.kind !== 'Namespace')
        expect({ file, ns: object.metadata.namespace }).toEqual({ file, ns: 'transfergate' });
    }
  });

  it('the schema check is real: a broken Deployment is refused', () => {
    const broken = structuredClone(of('Deployment')[0]!);
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    expect(() => new Deployment(broken).validate()).toThrow(/containerPort/);
  });

  it('a Deployment, Service and PodDisruptionBudget per service, with probes, resources, non-root, default ports', () => {
    const deployments = of('Deployment');
    const services = of('Service');
    const budgets = of('PodDisruptionBudget');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(Object.keys(SERVICE_PORTS).sort());
    const images = new Set<string>();
    for (const deployment of deployments) {
      const name = deployment.metadata.name;
      const port = SERVICE_PORTS[name]!;
      const pod = deployment.spec.template.spec;
      const [container, ...more] = pod.containers;
      expect(more).toEqual([]);
      images.add(container.image);
      expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
      expect(container.command).toEqual(['node', `services/${name}/dist/main.js`]);
      expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
      expect(container.env.find((e: Yaml) => e.name === 'PORT').value).toBe(String(port));
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'http' });
      for (const kind of ['requests', 'limits']) {
        expect(container.resources[kind].cpu).toBeDefined();
        expect(container.resources[kind].memory).toBeDefined();
      }
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
      // The shared settings whole, but of the Secret only the keys this service reads.
      expect(container.envFrom).toEqual([{ configMapRef: { name: 'transfergate-config' } }]);
      const secretRefs = (container.env as Yaml[])
        .filter((e) => e.valueFrom?.secretKeyRef)
        .map((e) => {
          expect(e.valueFrom.secretKeyRef.name).toBe('transfergate-secrets');
          expect(e.valueFrom.secretKeyRef.key).toBe(e.name);
          return e.name as string;
        });
      expect({ name, secrets: secretRefs.sort() }).toEqual({
        name,
        secrets: [...SERVICE_SECRETS[name as DistributedServiceName]].sort(),
      });
      const selector = deployment.spec.selector.matchLabels;
      expect(deployment.spec.template.metadata.labels).toMatchObject(selector);
      const service = services.find((s) => s.metadata.name === name)!;
      expect(service.spec.selector).toEqual(selector);
      expect(service.spec.ports).toEqual([{ name: 'http', port, targetPort: 'http' }]);
      const budget = budgets.find((b) => b.metadata.name === name)!;
      expect(budget.spec.selector.matchLabels).toEqual(selector);
      expect(budget.spec.minAvailable).toBeLessThan(deployment.spec.replicas);
    }
    expect(images.size).toBe(1);
    const kustomization = parse(readFileSync(join(k8sDir, 'kustomization.yaml'), 'utf8'));
    const files = readdirSync(k8sDir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  const secretData = () => of('Secret')[0]!['stringData' as 'spec'] as Record<string, string>;
  const configData = () => of('ConfigMap')[0]!['data' as 'spec'] as Record<string, string>;

  it('the Secret holds placeholders only, clearly marked, and each key is read by someone', () => {
    const data = secretData();
    for (const value of Object.values(data)) expect(value).toContain('CHANGE-ME');
    const read = new Set([...Object.values(SERVICE_SECRETS).flat(), ...PROVISIONING_SECRETS]);
    expect(Object.keys(data).filter((key) => !read.has(key))).toEqual([]);
  });

  it("a placeholder left in the Secret stops every service's start, ADMIN_PASSWORD's too", () => {
    const data = secretData();
    // The first admin's password passes every other check (10+ characters): the placeholder is refused.
    expect(data.ADMIN_PASSWORD!.length).toBeGreaterThanOrEqual(10);
    expect(() => loadRuntimeConfig({ ADMIN_PASSWORD: data.ADMIN_PASSWORD })).toThrow(
      /ADMIN_PASSWORD: still the deploy files' placeholder/,
    );
    for (const [service, keys] of Object.entries(SERVICE_SECRETS)) {
      const env = { ...configData(), ...Object.fromEntries(keys.map((key) => [key, data[key]])) };
      let error: unknown;
      try {
        loadServiceConfig(env, service as DistributedServiceName);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      // DATABASE_URL's placeholder is a valid URL otherwise: it is named for its placeholder.
      expect((error as Error).message).toContain("DATABASE_URL: still the deploy files' placeholder");
    }
  });

  it('with real values each service starts from its own keys only; one without the sealing key cannot read one', () => {
    const real: Record<string, string> = {
      DATABASE_URL: 'postgres://transfergate:s3cret@postgres:5432/transfergate',
      TRANSFERGATE_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
      METRICS_TOKEN: 'a-metrics-token-0123456789',
    };
    for (const [service, keys] of Object.entries(SERVICE_SECRETS)) {
      const env = { ...configData(), ...Object.fromEntries(keys.map((key) => [key, real[key]!])) };
      const config = loadServiceConfig(env, service as DistributedServiceName);
      if (keys.includes('TRANSFERGATE_SECRET_KEY')) expect(config.runtime.secretKey).toHaveLength(32);
      else expect(() => config.runtime.secretKey).toThrow(/not given to this service/);
    }
  });

  describe('the Ingress routes every route the app registers to the service that owns it', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp('pglite');
    }, 60_000);
    afterAll(async () => {
      await app?.stop();
    });

    it('each public route reaches its owner; probes and metrics stay in-cluster', () => {
      const owners = controllerRouteOwners(app);
      const [ingress] = of('Ingress');
      const rules: Array<{ path: string; pathType: string; service: string; port: number }> =
        ingress!.spec.rules.flatMap((rule: Yaml) =>
          rule.http.paths.map((p: Yaml) => ({
            path: p.path,
            pathType: p.pathType,
            service: p.backend.service.name,
            port: p.backend.service.port.number,
          })),
        );
      for (const rule of rules) expect({ rule, port: SERVICE_PORTS[rule.service] }).toEqual({ rule, port: rule.port });

      const routes = [...new Set(app.routes.map((r) => r.url))];
      const misrouted = (candidate: typeof rules) =>
        routes.flatMap((route) => {
          const listed = NON_CONTROLLER_ROUTES.find(([pattern]) => pattern.test(route));
          const owner = listed ? listed[1] : owners.get(route);
          if (owner === undefined) return [{ route, problem: 'no owner known' }];
          const sample = route.replace(/:[A-Za-z]+/g, 'sample').replace(/\*$/, 'sample');
          const target = ingressTarget(candidate, sample);
          return target === (owner ?? undefined) ? [] : [{ route, problem: `reaches ${target} instead of ${owner}` }];
        });
      expect(misrouted(rules)).toEqual([]);
      // The check is real: webhooks sent to the gateway, or the panel's prefix dropped, are caught.
      const swapped = rules.map((r) => (r.path === '/deposit/callback' ? { ...r, service: 'gateway-api' } : r));
      expect(misrouted(swapped)).toEqual([
        { route: '/deposit/callback/:slug', problem: 'reaches gateway-api instead of webhook-ingest' },
      ]);
      expect(misrouted(rules.filter((r) => r.path !== '/api/auth')).map((m) => m.route)).toContain('/api/auth/login');
      const checked = routes;
      // The contract's anchors, so an empty route list cannot pass.
      for (const route of [
        '/deposit/bank',
        '/status/:identifier',
        '/api/auth/login',
        '/deposit/callback/:slug',
        '/admin',
      ]) {
        expect(checked).toContain(route);
      }
    });
  });
});

/** Ingress matching (networking.k8s.io/v1): an Exact match wins, then the longest Prefix by path element. */
function ingressTarget(rules: Array<{ path: string; pathType: string; service: string }>, path: string) {
  const exact = rules.find((r) => r.pathType === 'Exact' && r.path === path);
  if (exact) return exact.service;
  const elements = path.split('/').filter(Boolean);
  let best: { length: number; service: string } | undefined;
  for (const rule of rules.filter((r) => r.pathType === 'Prefix')) {
    const prefix = rule.path.split('/').filter(Boolean);
    if (prefix.every((element, i) => elements[i] === element) && (!best || prefix.length > best.length)) {
      best = { length: prefix.length, service: rule.service };
    }
  }
  return best?.service;
}

/** Route → owning service, from the controllers of each service's module tree in the running app. */
function controllerRouteOwners(app: TestApp): Map<string, string> {
  const container = app.app.get(ModulesContainer);
  const modules = [...container.values()];
  const serviceOf = new Map<unknown, string>();
  for (const module of modules) {
    const service = SERVICE_MODULES[module.metatype?.name ?? ''];
    if (!service) continue;
    const queue = [module];
    while (queue.length) {
      const current = queue.shift()!;
      if (serviceOf.has(current)) continue;
      serviceOf.set(current, service);
      for (const imported of current.imports)
        if (!SERVICE_MODULES[imported?.metatype?.name ?? '']) queue.push(imported);
    }
  }
  const owners = new Map<string, string>();
  for (const [module, service] of serviceOf) {
    for (const wrapper of (module as (typeof modules)[number]).controllers.values()) {
      const controller = wrapper.metatype as Yaml;
      if (!controller) continue;
      const bases = [Reflect.getMetadata(PATH_METADATA, controller) ?? '/'].flat() as string[];
      for (const key of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[key];
        if (key === 'constructor' || typeof handler !== 'function') continue;
        const paths = Reflect.getMetadata(PATH_METADATA, handler);
        if (paths === undefined) continue;
        for (const base of bases) {
          for (const path of [paths].flat() as string[]) {
            const url = `/${[base, path]
              .map((p) => p.replace(/^\/+|\/+$/g, ''))
              .filter(Boolean)
              .join('/')}`;
            const previous = owners.get(url);
            expect({ url, owner: previous ?? service }).toEqual({ url, owner: service });
            owners.set(url, service);
          }
        }
      }
    }
  }
  return owners;
}
