export * from './account-file';
export * from './endpoints';
export * from './faults';
export * from './idempotency-store';
export * from './rate-limiter';
export * from './seed';
export * from './simulator';
export * from './state';
