/**
 * The arrows of src/ (src/core/README.md): `npm run lint` fails on an import that breaks one.
 * test/contract/dependency-rules.test.ts shows each rule failing on a fixture.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'request-stands-alone',
      comment:
        'src/core/request/ decides what is sent before anything is sent: it imports no other core folder.',
      severity: 'error',
      from: { path: '^src/core/request/' },
      to: { path: '^src/core/(transport|auth|pacing|response)/' },
    },
    {
      name: 'auth-and-pacing-below-transport',
      comment: 'auth/ and pacing/ are used by the transport, never the other way round.',
      severity: 'error',
      from: { path: '^src/core/(auth|pacing)/' },
      to: { path: '^src/core/transport/' },
    },
    {
      name: 'response-below-transport',
      comment: 'response/ reads what came back; the transport calls it, not the other way round.',
      severity: 'error',
      from: { path: '^src/core/response/' },
      to: { path: '^src/core/(transport|auth|pacing)/' },
    },
    {
      name: 'ky-only-in-transport',
      comment: 'ky is adapted in one place: src/core/transport/.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/core/transport/' },
      to: { path: 'node_modules/ky/' },
    },
    {
      name: 'webhooks-use-shared-only',
      comment:
        'telephony-sdk/webhooks pulls in neither the client nor ky nor zod (API.md, Package): of src/, it imports src/shared/ only.',
      severity: 'error',
      from: { path: '^src/webhooks/' },
      to: { path: '^src/|node_modules/(ky|zod)/', pathNot: '^src/(webhooks|shared)/' },
    },
    {
      name: 'core-below-resources',
      comment:
        'Arrows one way: resources and the client use core; core never imports them, nor an entry of its own (webhooks, redis, testing).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(resources|webhooks|redis|testing)/|^src/(client|index)\\.ts$' },
    },
    {
      name: 'resources-below-client',
      comment:
        'A resource describes its calls through core: it never imports the client, an entry or the redis store.',
      severity: 'error',
      from: { path: '^src/resources/' },
      to: { path: '^src/redis/|^src/(client|index)\\.ts$' },
    },
    {
      name: 'nothing-imports-testing',
      comment: 'The sandbox is an entry of its own; the SDK never imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/testing/' },
      to: { path: '^src/testing/' },
    },
    {
      name: 'resources-through-core',
      comment:
        'A resource describes its calls: it reaches the transport through core, never another resource. Its own files (calls.ts, calls-schemas.ts, the lazily loaded calls-lookup.ts …, $1 the resource) are part of it.',
      severity: 'error',
      from: { path: '^src/resources/([a-z]+)[-.]', pathNot: '^src/resources/(index|resource|fields)\\.ts$' },
      to: { path: '^src/resources/', pathNot: '^src/resources/((resource|fields)\\.ts$|$1[-.])' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
