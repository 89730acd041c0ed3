export * from './bridge';
export * from './data-hosting-server';
export * from './hosting-api';
export * from './ip-settings';
export * from './on-destroy';
export * from './power-state';
export * from './server-firewall';
