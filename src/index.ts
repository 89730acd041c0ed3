// The jsii surface: the constructs and their enums, and the testing kit as the `testing` submodule.
// The API client, the reconcile engine, the handler and the simulator are internal layers.
export * from './constructs';
export * as testing from './testing';
