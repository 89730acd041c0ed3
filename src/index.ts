// The jsii surface: the constructs and their enums. The API client, the reconcile engine, the
// handler and the simulator are internal layers and are not exported.
export * from './constructs';
