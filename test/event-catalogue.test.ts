/**
 * The event catalogue (docs/interface.md#events, libs/contracts/src/events.ts): the CRUD types follow
 * from the resource declarations, every type names its entity, and every event the services write
 * names a type of it. recordEvent is typed by the catalogue, so a literal type outside it does not
 * compile; this test reads every call site, every function that makes an event for it, and every
 * hook's own type, so a type that reaches the outbox some other way (a computed one) is seen too.
 * Reads the work tree only.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';
import ts from 'typescript';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';
import { entityOf } from '@platform/service-kit/events/outbox.ts';
import { offers } from '@platform/kit/resource/resource.ts';
import { EVENT_CATALOGUE, EVENT_TYPES, isEventType } from '@platform/contracts/events.ts';
import { registry } from '../gateway/src/registry.ts';
import { tsFiles } from './helpers/module-specifiers.ts';

test("the CRUD types are each resource's offered writes: <path>.created|updated|deleted, and no others", (t) => {
  const writes = [
    ['create', 'created'],
    ['update', 'updated'],
    ['delete', 'deleted'],
  ] as const;
  for (const resource of registry) {
    for (const [operation, what] of writes) {
      t.is(isEventType(`${resource.path}.${what}`), offers(resource, operation), `${resource.path}.${what}`);
    }
  }
  t.true(isEventType('accrual.approved') && isEventType('dms-file.uploaded') && isEventType('session.ended'));
  t.false(isEventType('acrual.approved'));
});

test('each type is <entity>.<what>, its entity a resource of the registry or session, as its declaration says', (t) => {
  const entities = new Set([...registry.map((resource) => resource.path), 'session']);
  for (const [type, declaration] of EVENT_CATALOGUE) {
    t.regex(type, /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/);
    t.is(entityOf(type), declaration.entity, type);
    t.true(entities.has(declaration.entity), type);
  }
  t.is(new Set(EVENT_TYPES).size, EVENT_TYPES.length);
});

/** A `type` written at a call site: a literal's text, or the expression as written. */
interface Written {
  at: string;
  literal?: string;
  expression: string;
}

/**
 * The `type` of every `recordEvent(em, {...})` call, every object a function declared to return an
 * EventInput makes (the CRUD engine's changeEvent), and every object a resource hook's `event()` returns.
 */
function writtenTypes(): Written[] {
  const found: Written[] = [];
  const files = ['libs/kit/src', 'libs/service-kit/src', 'core-svc/src', 'bpm-svc/src', 'dms-svc/src'].flatMap((dir) => tsFiles(join(ROOT_DIR, dir)));
  for (const file of files) {
    if (file.includes('/gen/') || file.includes('/migrations/')) continue;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const typeOf = (object: ts.ObjectLiteralExpression): void => {
      for (const property of object.properties) {
        if (!ts.isPropertyAssignment(property) || property.name.getText(source) !== 'type') continue;
        const at = `${relative(ROOT_DIR, file)}:${source.getLineAndCharacterOfPosition(property.getStart(source)).line + 1}`;
        // `cond ? 'a.x' : 'a.y'` is two literals
        const init = property.initializer;
        const branches = ts.isConditionalExpression(init) ? [init.whenTrue, init.whenFalse] : [init];
        if (branches.every(ts.isStringLiteralLike)) for (const branch of branches) found.push({ at, expression: branch.getText(source), literal: branch.text });
        else found.push({ at, expression: init.getText(source) });
      }
    };
    const inHook = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node)) typeOf(node);
      ts.forEachChild(node, inHook);
    };
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        node.expression.getText(source) === 'recordEvent' &&
        node.arguments[1] &&
        ts.isObjectLiteralExpression(node.arguments[1])
      ) {
        typeOf(node.arguments[1]);
      }
      if ((ts.isMethodDeclaration(node) || ts.isPropertyAssignment(node)) && node.name.getText(source) === 'event') inHook(node);
      if (ts.isFunctionDeclaration(node) && node.type?.getText(source).includes('EventInput')) inHook(node);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

test('every recordEvent call and every hook-made type names a type of the catalogue', (t) => {
  const written = writtenTypes();
  const literals = written.filter((w) => w.literal !== undefined);
  t.true(literals.length >= 15, `only ${literals.length} literal types found: the walk no longer finds the call sites`);
  t.deepEqual(
    literals.filter((w) => !isEventType(w.literal!)).map((w) => `${w.at} ${w.literal}`),
    [],
  );
  // the computed ones are typed by the catalogue too; each is named here, so that a new one is looked at
  t.deepEqual(
    written
      .filter((w) => w.literal === undefined)
      .map((w) => w.expression)
      .sort(),
    ['move.event', 'own?.type ?? crudEventType(rt.resource, what)'],
  );
});
