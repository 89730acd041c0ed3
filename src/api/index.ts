export * from './base-url';
export * from './client';
export * from './errors';
export * from './operation-wait';
export * from './rate-limit-pacer';
export * from './retry-policy';
export * from './schemas';
export * from './transport';
