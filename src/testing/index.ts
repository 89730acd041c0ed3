// The testing kit (`import { testing } from 'cdktf-server-hosting'`, Python
// `from cdktf_server_hosting import testing`): a simulated account for a team's own tests.
export * from './fault';
export * from './isolated-app';
export * from './server-state';
export * from './simulated-account';
