/**
 * Entry `telephony-sdk/redis`: the clients' {@link SharedState} and the webhook receiver's
 * {@link DedupStore} in Redis 7 or Valkey (Redis Cluster too), over a connected node-redis or ioredis
 * client the user passes in. Neither library is imported: both are optional peer dependencies.
 */
export type { IORedisClient, NodeRedisClient, NodeRedisCluster, RedisConnection } from './connection.js';
export { redisDedupStore } from './dedup.js';
export { type RedisStoreOptions, redisState } from './state.js';
