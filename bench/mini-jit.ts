/**
 * A design measured for the validation row: zod/mini schemas whose objects run on zod core's
 * JIT-compiled object parser (`$ZodObjectJIT`, what classic `z.object` uses) instead of mini's
 * interpreted one. Same `parse`, same issues, unknown keys kept; where `eval` is forbidden (CSP,
 * Workers) core falls back to the interpreted path by itself.
 */
import * as z from 'zod/mini';
import * as core from 'zod/v4/core';

type Init = (inst: z.ZodMiniObject, def: core.$ZodObjectDef) => void;
const initJitObject: Init = core.$ZodObjectJIT.init;
const initMiniType: Init = z.ZodMiniType.init;

const ZodMiniObjectJIT = core.$constructor(
  'ZodMiniObjectJIT',
  (inst: z.ZodMiniObject, def: core.$ZodObjectDef) => {
    initJitObject(inst, def);
    initMiniType(inst, def);
  },
);

/** `z.looseObject` of zod/mini, parsed by the JIT object parser. */
export function looseObjectJIT<T extends core.$ZodLooseShape>(shape: T): z.ZodMiniObject<T, core.$loose> {
  const def: core.$ZodObjectDef = { type: 'object', shape, catchall: z.unknown() };
  return new ZodMiniObjectJIT(def) as unknown as z.ZodMiniObject<T, core.$loose>;
}

const party = { number: z.string(), name: z.string() };

/** The same page schema as `miniLoosePage`, on the JIT object parser. */
export const miniJitLoosePage = looseObjectJIT({
  calls: z.array(
    looseObjectJIT({
      id: z.string(),
      direction: z.string(),
      from: looseObjectJIT(party),
      to: looseObjectJIT(party),
      duration: z.number().check(z.int()),
      status: z.string(),
      recording_url: z.nullable(z.string()),
      notes: z.string(),
      tags: z.array(z.string()),
      timestamp: z.string(),
    }),
  ),
  pagination: looseObjectJIT({
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
    has_more: z.boolean(),
  }),
});
