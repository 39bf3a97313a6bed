/**
 * Assignability both ways, for type tests that hold a documented interface equal to its schema:
 * `toEqualTypeOf` alone does not tell `name?: string` from zod's `name?: string | undefined` under
 * `exactOptionalPropertyTypes`.
 */

/** `true` when `A` and `B` are assignable both ways; otherwise `tsc` rejects `same<A, B>(true)`. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const same = <A, B>(verdict: Mutual<A, B>) => verdict;
